package expr

import (
	"strconv"
	"strings"
)

// Op is the operator of a predicate.
type Op uint8

// The operators. Each has its negation ([Op.Negate]).
const (
	Eq Op = iota
	NotEq
	Lt
	LtEq
	Gt
	GtEq
	In
	NotIn
	IsNull
	NotNull
	IsNaN
	NotNaN
	StartsWith
	NotStartsWith
)

var opNames = [...]string{"=", "!=", "<", "<=", ">", ">=", "IN", "NOT IN", "IS NULL", "IS NOT NULL", "IS NAN", "IS NOT NAN", "STARTS WITH", "NOT STARTS WITH"}

// String returns the operator as the string form spells it.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op(" + strconv.Itoa(int(o)) + ")"
}

// Negate returns the operator that holds exactly where o does not (with
// the null semantics of the package doc): = and !=, < and >=, <= and >, IN
// and NOT IN, IS NULL and IS NOT NULL, IS NAN and IS NOT NAN, STARTS WITH
// and NOT STARTS WITH.
func (o Op) Negate() Op {
	switch o {
	case Lt:
		return GtEq
	case GtEq:
		return Lt
	case LtEq:
		return Gt
	case Gt:
		return LtEq
	}
	return o ^ 1
}

func (o Op) unary() bool { return o >= IsNull && o <= NotNaN }

// Expr is an unbound filter expression: a tree of [And], [Or], [Not],
// [Pred] and [Const]. Bind it to a schema with [Bind].
type Expr interface {
	// String returns the expression in the string form [Parse] reads.
	String() string
	isExpr()
}

// And holds where both sides hold.
type And struct{ Left, Right Expr }

// Or holds where either side holds.
type Or struct{ Left, Right Expr }

// Not holds where E does not.
type Not struct{ E Expr }

// Const is the expression true or false.
type Const bool

// LitKind is the lexical kind of a [Literal].
type LitKind uint8

// The literal kinds.
const (
	LitString LitKind = iota // 'text'
	LitNumber                // 12, -3.5, 1e9
	LitBool                  // true, false
)

// Literal is a value as written; binding types it from the field.
type Literal struct {
	Kind LitKind
	Text string // the string's contents, the number's digits, "true"/"false"
}

// String returns the literal as the string form spells it.
func (l Literal) String() string {
	if l.Kind == LitString {
		return "'" + strings.ReplaceAll(l.Text, "'", "''") + "'"
	}
	return l.Text
}

// Pred is a predicate on one column: Column is a dotted path of field names
// ("addr.zip"); Values holds one literal for the comparisons and STARTS
// WITH, one or more for IN and NOT IN, none for IS [NOT] NULL and IS [NOT]
// NAN.
type Pred struct {
	Op     Op
	Column string
	Values []Literal
}

func (And) isExpr()   {}
func (Or) isExpr()    {}
func (Not) isExpr()   {}
func (Const) isExpr() {}
func (Pred) isExpr()  {}

func (e And) String() string { return "(" + e.Left.String() + " AND " + e.Right.String() + ")" }
func (e Or) String() string  { return "(" + e.Left.String() + " OR " + e.Right.String() + ")" }
func (e Not) String() string { return "NOT " + e.E.String() }
func (e Const) String() string {
	if e {
		return "true"
	}
	return "false"
}

func (p Pred) String() string {
	col := quoteColumn(p.Column)
	switch {
	case p.Op.unary():
		return col + " " + p.Op.String()
	case p.Op == In || p.Op == NotIn:
		vs := make([]string, len(p.Values))
		for i, v := range p.Values {
			vs[i] = v.String()
		}
		return col + " " + p.Op.String() + " (" + strings.Join(vs, ", ") + ")"
	}
	v := ""
	if len(p.Values) > 0 {
		v = p.Values[0].String()
	}
	return col + " " + p.Op.String() + " " + v
}

func quoteColumn(c string) string {
	for _, part := range strings.Split(c, ".") {
		if !isIdent(part) || keywords[strings.ToLower(part)] {
			return `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
		}
	}
	return c
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Helpers building expressions in Go.

// Equal returns column = v; v is a Go string, bool, integer or float.
func Equal(column string, v any) Expr { return Pred{Op: Eq, Column: column, Values: []Literal{lit(v)}} }

// Compare returns the predicate column op v (v as for [Equal]).
func Compare(column string, op Op, v any) Expr {
	return Pred{Op: op, Column: column, Values: []Literal{lit(v)}}
}

// IsIn returns column IN (vs...).
func IsIn(column string, vs ...any) Expr {
	p := Pred{Op: In, Column: column}
	for _, v := range vs {
		p.Values = append(p.Values, lit(v))
	}
	return p
}

// Null returns column IS NULL.
func Null(column string) Expr { return Pred{Op: IsNull, Column: column} }

func lit(v any) Literal {
	switch x := v.(type) {
	case string:
		return Literal{Kind: LitString, Text: x}
	case bool:
		return Literal{Kind: LitBool, Text: strconv.FormatBool(x)}
	case int:
		return Literal{Kind: LitNumber, Text: strconv.Itoa(x)}
	case int32:
		return Literal{Kind: LitNumber, Text: strconv.FormatInt(int64(x), 10)}
	case int64:
		return Literal{Kind: LitNumber, Text: strconv.FormatInt(x, 10)}
	case float32:
		return Literal{Kind: LitNumber, Text: strconv.FormatFloat(float64(x), 'g', -1, 32)}
	case float64:
		return Literal{Kind: LitNumber, Text: strconv.FormatFloat(x, 'g', -1, 64)}
	}
	return Literal{Kind: LitString, Text: ""}
}

// AndAll returns the conjunction of es (true when es is empty).
func AndAll(es ...Expr) Expr {
	var out Expr = Const(true)
	for i, e := range es {
		if i == 0 {
			out = e
		} else {
			out = And{out, e}
		}
	}
	return out
}
