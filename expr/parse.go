package expr

import (
	"strings"
)

var keywords = map[string]bool{"and": true, "or": true, "not": true, "in": true, "is": true, "null": true, "nan": true, "starts": true, "with": true, "true": true, "false": true}

// maxDepth caps the nesting of parentheses and NOT in a filter string.
const maxDepth = 200

// Parse reads a filter in the string form:
//
//	expr   := or
//	or     := and { OR and }
//	and    := unary { AND unary }
//	unary  := NOT unary | '(' expr ')' | TRUE | FALSE | pred
//	pred   := column op literal
//	        | column [NOT] IN '(' literal { ',' literal } ')'
//	        | column IS [NOT] NULL | column IS [NOT] NAN
//	        | column [NOT] STARTS WITH string
//	op     := = | == | != | <> | < | <= | > | >=
//	column := name { '.' name }     name: letters, digits, _ or "quoted"/`quoted`
//	literal:= 'string' ('' inside for ') | number | TRUE | FALSE
//
// Keywords are case-insensitive. A string that does not parse returns a
// [*SyntaxError] (matching [ErrSyntax]) with the offset of the offending
// character.
func Parse(s string) (Expr, error) {
	p := &parser{src: s}
	p.next()
	e := p.or(0)
	if p.err == nil && p.tok.kind != tEOF {
		p.fail(p.tok.pos, "unexpected "+p.tok.describe())
	}
	if p.err != nil {
		return nil, p.err
	}
	return e, nil
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tQuotedIdent
	tString
	tNumber
	tOp
	tLParen
	tRParen
	tComma
	tDot
)

type token struct {
	kind tokKind
	text string
	pos  int
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of filter"
	case tString:
		return "string '" + t.text + "'"
	}
	return "'" + t.text + "'"
}

func (t token) is(kw string) bool { return t.kind == tIdent && strings.EqualFold(t.text, kw) }

type parser struct {
	src string
	off int
	tok token
	err *SyntaxError
}

func (p *parser) fail(pos int, msg string) {
	if p.err == nil {
		p.err = &SyntaxError{Expr: p.src, Pos: pos, Msg: msg}
	}
	p.tok = token{kind: tEOF, pos: len(p.src)}
}

// next scans the next token into p.tok.
func (p *parser) next() {
	if p.err != nil {
		return
	}
	s := p.src
	for p.off < len(s) && (s[p.off] == ' ' || s[p.off] == '\t' || s[p.off] == '\n' || s[p.off] == '\r') {
		p.off++
	}
	start := p.off
	if p.off >= len(s) {
		p.tok = token{kind: tEOF, pos: len(s)}
		return
	}
	c := s[p.off]
	switch {
	case c == '(':
		p.off++
		p.tok = token{tLParen, "(", start}
	case c == ')':
		p.off++
		p.tok = token{tRParen, ")", start}
	case c == ',':
		p.off++
		p.tok = token{tComma, ",", start}
	case c == '.' && !(p.off+1 < len(s) && isDigit(s[p.off+1])):
		p.off++
		p.tok = token{tDot, ".", start}
	case c == '\'' || c == '"' || c == '`':
		var b strings.Builder
		p.off++
		for {
			if p.off >= len(s) {
				p.fail(start, "unterminated quote")
				return
			}
			if s[p.off] == c {
				if p.off+1 < len(s) && s[p.off+1] == c {
					b.WriteByte(c)
					p.off += 2
					continue
				}
				p.off++
				break
			}
			b.WriteByte(s[p.off])
			p.off++
		}
		k := tString
		if c != '\'' {
			k = tQuotedIdent
		}
		p.tok = token{k, b.String(), start}
	case isDigit(c) || c == '-' || c == '+' || c == '.':
		p.off++
		for p.off < len(s) {
			d := s[p.off]
			if isDigit(d) || d == '.' || d == 'e' || d == 'E' || ((d == '-' || d == '+') && (s[p.off-1] == 'e' || s[p.off-1] == 'E')) {
				p.off++
				continue
			}
			break
		}
		text := s[start:p.off]
		if !validNumber(text) {
			p.fail(start, "malformed number "+text)
			return
		}
		p.tok = token{tNumber, text, start}
	case c == '=' || c == '!' || c == '<' || c == '>':
		p.off++
		if p.off < len(s) && (s[p.off] == '=' || c == '<' && s[p.off] == '>') {
			p.off++
		}
		op := s[start:p.off]
		if op == "!" {
			p.fail(start, "expected != ")
			return
		}
		p.tok = token{tOp, op, start}
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
		for p.off < len(s) {
			d := s[p.off]
			if d == '_' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || isDigit(d) || d >= 0x80 {
				p.off++
				continue
			}
			break
		}
		p.tok = token{tIdent, s[start:p.off], start}
	default:
		p.fail(start, "unexpected character "+string(rune(c)))
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func validNumber(t string) bool {
	i := 0
	if i < len(t) && (t[i] == '-' || t[i] == '+') {
		i++
	}
	digits, dot, exp := 0, false, false
	for ; i < len(t); i++ {
		switch c := t[i]; {
		case isDigit(c):
			digits++
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && !exp && digits > 0:
			exp = true
			digits = 0
			if i+1 < len(t) && (t[i+1] == '-' || t[i+1] == '+') {
				i++
			}
		default:
			return false
		}
	}
	return digits > 0
}

func (p *parser) or(depth int) Expr {
	e := p.and(depth)
	for p.err == nil && p.tok.is("or") {
		p.next()
		e = Or{e, p.and(depth)}
	}
	return e
}

func (p *parser) and(depth int) Expr {
	e := p.unary(depth)
	for p.err == nil && p.tok.is("and") {
		p.next()
		e = And{e, p.unary(depth)}
	}
	return e
}

func (p *parser) unary(depth int) Expr {
	if depth > maxDepth {
		p.fail(p.tok.pos, "filter nested too deeply")
		return Const(false)
	}
	t := p.tok
	switch {
	case t.is("not"):
		p.next()
		return Not{p.unary(depth + 1)}
	case t.kind == tLParen:
		p.next()
		e := p.or(depth + 1)
		if p.err == nil && p.tok.kind != tRParen {
			p.fail(p.tok.pos, "expected ')' to close the '(' at character "+itoa(t.pos+1)+", found "+p.tok.describe())
		}
		p.next()
		return e
	case t.is("true"), t.is("false"):
		p.next()
		return Const(t.is("true"))
	case t.kind == tIdent && keywords[strings.ToLower(t.text)]:
		p.fail(t.pos, "expected a column, found keyword "+t.text)
		return Const(false)
	case t.kind == tIdent, t.kind == tQuotedIdent:
		return p.pred()
	}
	p.fail(t.pos, "expected a column, found "+t.describe())
	return Const(false)
}

func (p *parser) pred() Expr {
	var parts []string
	for {
		parts = append(parts, p.tok.text)
		p.next()
		if p.tok.kind != tDot {
			break
		}
		p.next()
		if p.tok.kind != tIdent && p.tok.kind != tQuotedIdent {
			p.fail(p.tok.pos, "expected a field name after '.'")
			return Const(false)
		}
	}
	col := strings.Join(parts, ".")
	t := p.tok
	switch {
	case t.kind == tOp:
		ops := map[string]Op{"=": Eq, "==": Eq, "!=": NotEq, "<>": NotEq, "<": Lt, "<=": LtEq, ">": Gt, ">=": GtEq}
		op := ops[t.text]
		p.next()
		if p.tok.is("null") {
			p.fail(p.tok.pos, "comparison with null is never true: use IS NULL or IS NOT NULL")
			return Const(false)
		}
		v := p.literal()
		return Pred{Op: op, Column: col, Values: []Literal{v}}
	case t.is("is"):
		p.next()
		neg := false
		if p.tok.is("not") {
			neg = true
			p.next()
		}
		var op Op
		switch {
		case p.tok.is("null"):
			op = IsNull
		case p.tok.is("nan"):
			op = IsNaN
		default:
			p.fail(p.tok.pos, "expected NULL or NAN after IS, found "+p.tok.describe())
			return Const(false)
		}
		p.next()
		if neg {
			op = op.Negate()
		}
		return Pred{Op: op, Column: col}
	case t.is("not"), t.is("in"), t.is("starts"):
		neg := false
		if t.is("not") {
			neg = true
			p.next()
		}
		var pr Pred
		switch {
		case p.tok.is("in"):
			p.next()
			pr = Pred{Op: In, Column: col}
			if p.tok.kind != tLParen {
				p.fail(p.tok.pos, "expected '(' after IN, found "+p.tok.describe())
				return Const(false)
			}
			p.next()
			for p.err == nil {
				pr.Values = append(pr.Values, p.literal())
				if p.tok.kind == tComma {
					p.next()
					continue
				}
				if p.tok.kind != tRParen {
					p.fail(p.tok.pos, "expected ',' or ')' in the IN list, found "+p.tok.describe())
				}
				break
			}
			p.next()
		case p.tok.is("starts"):
			p.next()
			if !p.tok.is("with") {
				p.fail(p.tok.pos, "expected WITH after STARTS, found "+p.tok.describe())
				return Const(false)
			}
			p.next()
			if p.tok.kind != tString {
				p.fail(p.tok.pos, "STARTS WITH takes a string, found "+p.tok.describe())
				return Const(false)
			}
			pr = Pred{Op: StartsWith, Column: col, Values: []Literal{{Kind: LitString, Text: p.tok.text}}}
			p.next()
		default:
			p.fail(p.tok.pos, "expected IN or STARTS WITH after NOT, found "+p.tok.describe())
			return Const(false)
		}
		if neg {
			pr.Op = pr.Op.Negate()
		}
		return pr
	}
	p.fail(t.pos, "expected an operator after "+col+", found "+t.describe())
	return Const(false)
}

func (p *parser) literal() Literal {
	t := p.tok
	switch {
	case t.kind == tString:
		p.next()
		return Literal{Kind: LitString, Text: t.text}
	case t.kind == tNumber:
		p.next()
		return Literal{Kind: LitNumber, Text: t.text}
	case t.is("true"), t.is("false"):
		p.next()
		return Literal{Kind: LitBool, Text: strings.ToLower(t.text)}
	}
	p.fail(t.pos, "expected a literal ('string', number, true or false), found "+t.describe())
	return Literal{}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
