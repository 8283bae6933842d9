package hudi

import (
	"strconv"
	"strings"
)

// parseProperties decodes a Java .properties file (hoodie.properties):
// "key=value" or "key:value" lines, '#' and '!' comments, backslash escapes
// (\: \= \\ \t \n \r \uXXXX) and lines continued with a trailing backslash.
func parseProperties(data string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(lines[i], " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		for strings.HasSuffix(line, "\\") && !strings.HasSuffix(line, "\\\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + strings.TrimLeft(lines[i], " \t\f")
		}
		// The key ends at the first unescaped '=', ':' or blank.
		k := 0
		for k < len(line) {
			c := line[k]
			if c == '\\' {
				k += 2
				continue
			}
			if c == '=' || c == ':' || c == ' ' || c == '\t' {
				break
			}
			k++
		}
		k = min(k, len(line))
		key := unescapeProp(line[:k])
		rest := strings.TrimLeft(line[k:], " \t\f")
		if rest != "" && (rest[0] == '=' || rest[0] == ':') {
			rest = strings.TrimLeft(rest[1:], " \t\f")
		}
		out[key] = unescapeProp(rest)
	}
	return out
}

func unescapeProp(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+4 < len(s) {
				if r, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(r))
					i += 4
					continue
				}
			}
			b.WriteByte('u')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
