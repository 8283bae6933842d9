package evolve

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lakecat/lakecat/schema"

	"github.com/lakecat/lakecat"
)

// ErrInvalidFlag is matched (with [errors.Is]) by the errors of
// [UpdateSchema.AddFlag] for a value it cannot parse.
var ErrInvalidFlag = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "evolve: invalid change flag")

// ParseType parses a column type as a person types it: an Iceberg type
// spelling ("long", "decimal(10, 2)", quoted or not, or a struct, list or map
// JSON object whose ids are placeholders), or else a Paimon type spelling
// ("BIGINT", "VARCHAR(10) NOT NULL", "ARRAY<INT>"). required reports a
// Paimon NOT NULL suffix. The error is the Iceberg parser's.
func ParseType(spelling string) (t schema.Type, required bool, err error) {
	s := strings.TrimSpace(spelling)
	t, err = schema.ParseIcebergType([]byte(s))
	if err == nil {
		return t, false, nil
	}
	if pt, notNull, perr := schema.ParsePaimonType([]byte(s)); perr == nil {
		return pt, notNull, nil
	}
	return nil, false, err
}

// FlagNames are the flag names [UpdateSchema.AddFlag] accepts, in the order
// the lakecat evolve command documents them.
var FlagNames = []string{"add", "add-nested", "rename", "optional", "type", "doc", "delete", "move"}

// AddFlag records the change one command-line flag spells (the flag name
// without dashes, and its value):
//
//	add         "NAME TYPE"            AddColumn (TYPE as [ParseType] reads it)
//	add-nested  "PARENT.NAME TYPE"     AddNestedColumn (split at the last dot)
//	rename      "PATH=NEWNAME"         RenameColumn
//	optional    "PATH"                 MakeColumnOptional
//	type        "PATH=TYPE"            UpdateColumnType
//	doc         "PATH=DOC"             UpdateColumnDoc
//	delete      "PATH"                 DeleteColumn
//	move        "PATH first"           MoveFirst
//	            "PATH before REF"      MoveBefore
//	            "PATH after REF"       MoveAfter
//
// A type spelled with a Paimon NOT NULL suffix adds a required column. Flags
// should be added in the order they were given on the command line, since
// the changes apply in order. Errors match [ErrInvalidFlag].
func (u *UpdateSchema) AddFlag(flag, value string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s %q: %s", ErrInvalidFlag, flag, value, fmt.Sprintf(format, args...))
	}
	v := strings.TrimSpace(value)
	switch flag {
	case "add", "add-nested":
		path, spelling, ok := strings.Cut(v, " ")
		if i := strings.IndexFunc(v, unicode.IsSpace); i >= 0 {
			path, spelling, ok = v[:i], v[i+1:], true
		}
		if !ok || path == "" || strings.TrimSpace(spelling) == "" {
			return bad("want NAME TYPE")
		}
		t, required, err := ParseType(spelling)
		if err != nil {
			return bad("%v", err)
		}
		var opts []ColumnOption
		if required {
			opts = append(opts, Required())
		}
		if flag == "add" {
			u.AddColumn(path, t, "", opts...)
			return nil
		}
		i := strings.LastIndexByte(path, '.')
		if i <= 0 || i == len(path)-1 {
			return bad("want PARENT.NAME TYPE")
		}
		u.AddNestedColumn(path[:i], path[i+1:], t, "", opts...)
	case "rename", "type", "doc":
		path, rest, ok := strings.Cut(v, "=")
		path = strings.TrimSpace(path)
		if !ok || path == "" || (flag != "doc" && strings.TrimSpace(rest) == "") {
			return bad("want PATH=%s", map[string]string{"rename": "NEWNAME", "type": "TYPE", "doc": "DOC"}[flag])
		}
		switch flag {
		case "rename":
			u.RenameColumn(path, strings.TrimSpace(rest))
		case "doc":
			u.UpdateColumnDoc(path, rest)
		default:
			t, _, err := ParseType(rest)
			if err != nil {
				return bad("%v", err)
			}
			u.UpdateColumnType(path, t)
		}
	case "optional", "delete":
		if v == "" {
			return bad("want PATH")
		}
		if flag == "optional" {
			u.MakeColumnOptional(v)
		} else {
			u.DeleteColumn(v)
		}
	case "move":
		w := strings.Fields(v)
		switch {
		case len(w) == 2 && strings.EqualFold(w[1], "first"):
			u.MoveFirst(w[0])
		case len(w) == 3 && strings.EqualFold(w[1], "before"):
			u.MoveBefore(w[0], w[2])
		case len(w) == 3 && strings.EqualFold(w[1], "after"):
			u.MoveAfter(w[0], w[2])
		default:
			return bad("want 'PATH first', 'PATH before REF' or 'PATH after REF'")
		}
	default:
		return fmt.Errorf("%w: unknown change %q (want one of %s)", ErrInvalidFlag, flag, strings.Join(FlagNames, ", "))
	}
	return nil
}
