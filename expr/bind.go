package expr

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// Bound is an expression bound to a read schema: every predicate names a
// field id and holds its literals in the field's type. It is safe for
// concurrent use.
type Bound struct {
	root node
	cols []int // field ids of every column the expression names, see [Bound.ColumnIDs]
	// Schema is the read schema the expression was bound to.
	Schema *schema.Schema
}

type node interface{ isNode() }

type andNode struct{ l, r node }
type orNode struct{ l, r node }
type constNode bool

func (andNode) isNode()   {}
func (orNode) isNode()    {}
func (constNode) isNode() {}
func (*leaf) isNode()     {}

// leaf is a bound predicate.
type leaf struct {
	op     Op
	column string        // as written
	field  *schema.Field // the bound field
	path   []int         // indices of the field's struct ancestors and itself, from the top level
	vals   []any         // literals in the Go form of field.Type ([schema.Field])
	typed  typedLits     // literals in the batch evaluator's forms
}

// Bind resolves each column of e against s (case-sensitive first, then
// case-insensitive when that finds exactly one field), types its literals
// from the field, and pushes NOT down to the predicates. A number literal
// outside the range of an integer field (tinyint, smallint, int, long) is
// bound as Iceberg binds one above max or below min: the comparison becomes
// false, true or IS NOT NULL, and IN / NOT IN drop it. So is one beyond a
// decimal(P, S) field's range (at least 10^(P-S) in magnitude; Iceberg
// refuses it), and one beyond a float or double field's finite range (see
// outOfRangeNode).
//
// Errors: a column s lacks is a [*ColumnError] matching [ErrUnknownColumn]
// (class not found); one that names no field exactly and several
// case-insensitively is a [*ColumnError] matching [ErrAmbiguousColumn]
// (class invalid argument) naming them; a literal of the wrong kind, one
// that does not fit a field other than those above (a string, a date, a
// decimal literal inside the range with more than S fraction digits), an operator its type has no meaning for
// (STARTS WITH on a number, IS NAN on a string) or a field inside a list or
// map is a [*TypeError] matching [ErrType] (class invalid argument).
func Bind(e Expr, s *schema.Schema) (*Bound, error) {
	if s == nil {
		return nil, fmt.Errorf("expr: bind %s: no schema", e)
	}
	n, err := bind(e, s, false)
	if err != nil {
		return nil, err
	}
	return &Bound{root: simplify(n), Schema: s, cols: columnIDs(e, s, nil)}, nil
}

// columnIDs appends to ids the field id of each column e names that ids
// lacks, in the order first named. Bind has resolved every one.
func columnIDs(e Expr, s *schema.Schema, ids []int) []int {
	switch x := e.(type) {
	case And:
		return columnIDs(x.Right, s, columnIDs(x.Left, s, ids))
	case Or:
		return columnIDs(x.Right, s, columnIDs(x.Left, s, ids))
	case Not:
		return columnIDs(x.E, s, ids)
	case Pred:
		if f, _, _ := resolve(s.Fields, x.Column); f != nil && !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	return ids
}

// MustParseBind parses s and binds it to sch, panicking on error: for tests
// and examples with constant filters.
func MustParseBind(s string, sch *schema.Schema) *Bound {
	e, err := Parse(s)
	if err != nil {
		panic(err)
	}
	b, err := Bind(e, sch)
	if err != nil {
		panic(err)
	}
	return b
}

// ParseBind is [Parse] then [Bind].
func ParseBind(s string, sch *schema.Schema) (*Bound, error) {
	e, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return Bind(e, sch)
}

func bind(e Expr, s *schema.Schema, neg bool) (node, error) {
	switch x := e.(type) {
	case And:
		l, err := bind(x.Left, s, neg)
		if err != nil {
			return nil, err
		}
		r, err := bind(x.Right, s, neg)
		if err != nil {
			return nil, err
		}
		if neg {
			return orNode{l, r}, nil
		}
		return andNode{l, r}, nil
	case Or:
		l, err := bind(x.Left, s, neg)
		if err != nil {
			return nil, err
		}
		r, err := bind(x.Right, s, neg)
		if err != nil {
			return nil, err
		}
		if neg {
			return andNode{l, r}, nil
		}
		return orNode{l, r}, nil
	case Not:
		return bind(x.E, s, !neg)
	case Const:
		return constNode(bool(x) != neg), nil
	case Pred:
		return bindPred(x, s, neg)
	case nil:
		return constNode(!neg), nil
	}
	return nil, fmt.Errorf("expr: unknown expression %T", e)
}

// simplify folds constants: true AND x is x, false OR x is x, and so on.
func simplify(n node) node {
	switch x := n.(type) {
	case andNode:
		l, r := simplify(x.l), simplify(x.r)
		if c, ok := l.(constNode); ok {
			if !c {
				return c
			}
			return r
		}
		if c, ok := r.(constNode); ok {
			if !c {
				return c
			}
			return l
		}
		return andNode{l, r}
	case orNode:
		l, r := simplify(x.l), simplify(x.r)
		if c, ok := l.(constNode); ok {
			if c {
				return c
			}
			return r
		}
		if c, ok := r.(constNode); ok {
			if c {
				return c
			}
			return l
		}
		return orNode{l, r}
	}
	return n
}

func bindPred(p Pred, s *schema.Schema, neg bool) (node, error) {
	f, path, inRepeated := resolve(s.Fields, p.Column)
	if f == nil {
		names := make([]string, len(s.Fields))
		for i, g := range s.Fields {
			names[i] = g.Name
		}
		return nil, &ColumnError{Pred: p.String(), Column: p.Column, Matches: caseMatches(s.Fields, "", p.Column, nil), Names: names}
	}
	op := p.Op
	if neg {
		op = op.Negate()
	}
	l := &leaf{op: op, column: p.Column, field: f, path: path}
	typeErr := func(msg string) error {
		return &TypeError{Pred: p.String(), Column: p.Column, FieldID: f.ID, Type: f.Type.String(), Msg: msg}
	}
	if inRepeated {
		return nil, typeErr("a field inside a list or map cannot be filtered on")
	}
	pt, ok := f.Type.(schema.PrimitiveType)
	if !ok {
		if op == IsNull || op == NotNull {
			return l, nil
		}
		return nil, typeErr("only IS NULL and IS NOT NULL apply to a " + f.Type.Kind().String())
	}
	switch pt.K {
	case schema.KindUnknown, schema.KindFloat16:
		if op != IsNull && op != NotNull {
			return nil, typeErr("only IS NULL and IS NOT NULL apply to this type")
		}
	}
	switch op {
	case IsNull, NotNull:
		return l, nil
	case IsNaN, NotNaN:
		if pt.K != schema.KindFloat && pt.K != schema.KindDouble {
			return nil, typeErr(op.String() + " applies to float and double only")
		}
		return l, nil
	case StartsWith, NotStartsWith:
		if !isString(pt.K) {
			return nil, typeErr(op.String() + " applies to strings only")
		}
	}
	if len(p.Values) == 0 || (op != In && op != NotIn && len(p.Values) != 1) {
		return nil, typeErr(fmt.Sprintf("%s takes %s, got %d values", op, map[bool]string{true: "one or more values", false: "one value"}[op == In || op == NotIn], len(p.Values)))
	}
	for _, lit := range p.Values {
		v, err := literalValue(pt, lit)
		if err != nil {
			side := outOfRange(pt, lit)
			switch {
			case side == 0:
				return nil, typeErr(err.Error())
			case op == In || op == NotIn:
				continue // no value of the field equals it
			}
			return outOfRangeNode(l, side), nil
		}
		l.vals = append(l.vals, v)
	}
	if len(l.vals) == 0 { // every IN value out of range
		// NOT IN then holds for every row, nulls included (as it does
		// for a null here).
		return constNode(op == NotIn), nil
	}
	l.typed = typeLits(pt, l.vals)
	return l, nil
}

// integerRange is the least and greatest value of each integer type.
var integerRange = map[schema.Kind][2]int64{
	schema.KindTinyInt:  {math.MinInt8, math.MaxInt8},
	schema.KindSmallInt: {math.MinInt16, math.MaxInt16},
	schema.KindInt:      {math.MinInt32, math.MaxInt32},
	schema.KindLong:     {math.MinInt64, math.MaxInt64},
}

// outOfRange reports whether the number literal l lies above the greatest
// value of the integer type t (1), below its least (-1), for a float or
// double t beyond its greatest or least finite value (see [floatRange]),
// or for a decimal(P, S) t beyond ±10^(P-S) (see [decimalRange]); else 0
// (a literal of another kind, of another type, a fraction on an integer
// type, or one with more than S fraction digits inside a decimal's range).
func outOfRange(t schema.PrimitiveType, l Literal) int {
	if l.Kind != LitNumber {
		return 0
	}
	if t.K == schema.KindFloat || t.K == schema.KindDouble {
		return floatRange(t, l.Text)
	}
	if t.K == schema.KindDecimal {
		return decimalRange(t, l.Text)
	}
	r, ok := integerRange[t.K]
	if !ok {
		return 0
	}
	v, side, ok := integerValue(l.Text)
	switch {
	case !ok:
		return 0
	case side != 0:
		return side
	case v > r[1]:
		return 1
	case v < r[0]:
		return -1
	}
	return 0
}

// outOfRangeNode binds the comparison l with a literal above the field
// type's greatest value (side 1) or below its least (-1), as Iceberg binds
// it (its literals' "above max" and "below min"): = is false for every
// row; != true for every row, nulls included, as != holds for a null here;
// on an integer type an ordering comparison is either false for every row
// or true for every row but the nulls (an ordering comparison with null
// is never true), so it becomes a constant or IS NOT NULL. On a float or
// double, where the limits are the greatest finite value M and -M, the
// infinities lie beyond the literal and NaN compares with nothing: c < L
// and c <= L become c <= M, c > L and c >= L become c > M (c is
// +Infinity); below -M, c > L and c >= L become c >= -M, c < L and c <= L
// become c < -M. Iceberg Java binds those to always true or false, which
// counts the infinities and NaN wrongly.
func outOfRangeNode(l *leaf, side int) node {
	if pt, ok := l.field.Type.(schema.PrimitiveType); ok && (pt.K == schema.KindFloat || pt.K == schema.KindDouble) {
		return outOfFloatRange(l, pt, side)
	}
	switch l.op {
	case NotEq:
		return constNode(true)
	case Lt, LtEq:
		if side > 0 {
			l.op = NotNull
			return l
		}
	case Gt, GtEq:
		if side < 0 {
			l.op = NotNull
			return l
		}
	}
	return constNode(false)
}

// outOfFloatRange is [outOfRangeNode] for a float or double field.
func outOfFloatRange(l *leaf, t schema.PrimitiveType, side int) node {
	var m, neg any = math.MaxFloat64, -math.MaxFloat64
	if t.K != schema.KindDouble {
		m, neg = float32(math.MaxFloat32), float32(-math.MaxFloat32)
	}
	switch {
	case l.op == Eq:
		return constNode(false)
	case l.op == NotEq:
		return constNode(true)
	case side > 0 && (l.op == Lt || l.op == LtEq):
		l.op, l.vals = LtEq, []any{m}
	case side > 0:
		l.op, l.vals = Gt, []any{m}
	case l.op == Gt || l.op == GtEq:
		l.op, l.vals = GtEq, []any{neg}
	default:
		l.op, l.vals = Lt, []any{neg}
	}
	l.typed = typeLits(t, l.vals)
	return l
}

func isString(k schema.Kind) bool {
	return k == schema.KindString || k == schema.KindChar || k == schema.KindVarchar
}

// resolve finds the field at a dotted path through structs, whole names
// first (a name may hold a dot); inRepeated reports a field found under a
// list or map.
func resolve(fields []*schema.Field, path string) (*schema.Field, []int, bool) {
	if f, p, r := resolveCase(fields, path, false); f != nil {
		return f, p, r
	}
	return resolveCase(fields, path, true)
}

// caseMatches appends to out the dotted paths (under prefix) of the fields
// whose path equals column case-insensitively, through structs, lists and
// maps: the fields an ambiguous column names.
func caseMatches(fields []*schema.Field, prefix, column string, out []string) []string {
	for _, f := range fields {
		p := prefix + f.Name
		if strings.EqualFold(p, column) {
			out = append(out, p)
		}
		if len(column) > len(p) && column[len(p)] == '.' && strings.EqualFold(column[:len(p)], p) {
			out = caseMatches(schema.Children(f.Type), p+".", column, out)
		}
	}
	return out
}

func resolveCase(fields []*schema.Field, path string, ci bool) (*schema.Field, []int, bool) {
	eq := func(a, b string) bool {
		if ci {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	var found *schema.Field
	var idx int
	for i, f := range fields {
		if eq(f.Name, path) {
			if found != nil { // ambiguous under case-insensitive matching
				return nil, nil, false
			}
			found, idx = f, i
		}
	}
	if found != nil {
		return found, []int{idx}, false
	}
	for i, f := range fields {
		if len(path) > len(f.Name) && path[len(f.Name)] == '.' && eq(path[:len(f.Name)], f.Name) {
			rest := path[len(f.Name)+1:]
			switch t := f.Type.(type) {
			case *schema.StructType:
				if g, p, r := resolveCase(t.Fields, rest, ci); g != nil {
					return g, append([]int{i}, p...), r
				}
			case *schema.ListType, *schema.MapType:
				if g, _, _ := resolveCase(schema.Children(t), rest, ci); g != nil {
					return g, nil, true
				}
			}
		}
	}
	return nil, nil, false
}

// literalValue types a literal from a primitive field type, in the Go form
// of [schema.Field], with the literal parser of the schema package.
func literalValue(t schema.PrimitiveType, l Literal) (any, error) {
	quoted, _ := json.Marshal(l.Text)
	want := func(kind string) error {
		return fmt.Errorf("literal %s is not %s", l, kind)
	}
	switch t.K {
	case schema.KindBoolean:
		if l.Kind != LitBool {
			return nil, want("a boolean (true or false)")
		}
		return l.Text == "true", nil
	case schema.KindTinyInt, schema.KindSmallInt, schema.KindInt, schema.KindLong:
		if l.Kind != LitNumber {
			return nil, want("a number")
		}
		n, side, ok := integerValue(l.Text)
		if !ok || side != 0 {
			return nil, want("an integer in the range of " + t.String())
		}
		v, err := schema.ParseLiteral(t, json.RawMessage(strconv.FormatInt(n, 10)))
		if err != nil {
			return nil, want("an integer in the range of " + t.String())
		}
		return v, nil
	case schema.KindFloat, schema.KindDouble:
		if l.Kind != LitNumber {
			return nil, want("a number")
		}
		v, err := schema.ParseLiteral(t, json.RawMessage(l.Text))
		if err != nil {
			return nil, want("a number in the range of " + t.String())
		}
		return v, nil
	case schema.KindDecimal:
		if l.Kind == LitBool {
			return nil, want("a decimal")
		}
		v, err := schema.ParseLiteral(t, quoted)
		if err != nil {
			return nil, want(fmt.Sprintf("a decimal with at most %d fraction digits fitting %s", t.Scale, t))
		}
		return v, nil
	case schema.KindString, schema.KindChar, schema.KindVarchar:
		if l.Kind != LitString {
			return nil, want("a 'string'")
		}
		return l.Text, nil
	case schema.KindBinary, schema.KindFixed:
		if l.Kind != LitString {
			return nil, want("a 'string' of bytes")
		}
		if t.K == schema.KindFixed && len(l.Text) != t.Length {
			return nil, fmt.Errorf("literal %s has %d bytes, not %d", l, len(l.Text), t.Length)
		}
		return []byte(l.Text), nil
	case schema.KindDate, schema.KindTime, schema.KindUUID:
		if l.Kind != LitString {
			return nil, want("a quoted " + t.String())
		}
		v, err := schema.ParseLiteral(t, quoted)
		if err != nil {
			return nil, want("a valid " + t.String())
		}
		return v, nil
	case schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
		if l.Kind != LitString {
			return nil, want("a quoted " + t.String())
		}
		for _, s := range timestampForms(l.Text, t.K == schema.KindTimestampTz || t.K == schema.KindTimestampTzNs) {
			q, _ := json.Marshal(s)
			if v, err := schema.ParseLiteral(t, q); err == nil {
				return v, nil
			}
		}
		return nil, want("a " + t.String() + " (yyyy-mm-dd[Thh:mm:ss[.f]][+hh:mm])")
	}
	return nil, want("of a type filters support")
}

// timestampForms lists the spellings tried for a timestamp literal: as
// written, with a space read as 'T', a bare date at midnight, and for the
// zoned types UTC when no zone is given.
func timestampForms(s string, tz bool) []string {
	s = strings.Replace(s, " ", "T", 1)
	forms := []string{s}
	if len(s) == 10 {
		forms = append(forms, s+"T00:00:00")
	}
	if tz {
		for _, f := range forms {
			forms = append(forms, f+"+00:00")
		}
		if len(s) == 10 {
			forms = append(forms, s+"T00:00:00+00:00")
		}
	}
	return forms
}

// String returns the bound expression, with field ids: "(3:region = 'eu')".
func (b *Bound) String() string { return nodeString(b.root) }

func nodeString(n node) string {
	switch x := n.(type) {
	case andNode:
		return "(" + nodeString(x.l) + " AND " + nodeString(x.r) + ")"
	case orNode:
		return "(" + nodeString(x.l) + " OR " + nodeString(x.r) + ")"
	case constNode:
		return Const(x).String()
	case *leaf:
		p := Pred{Op: x.op, Column: x.column}
		for _, v := range x.vals {
			p.Values = append(p.Values, goLiteral(x.field.Type, v))
		}
		return fmt.Sprintf("%d:%s", x.field.ID, p.String())
	}
	return "?"
}

func goLiteral(t schema.Type, v any) Literal {
	switch x := v.(type) {
	case string:
		return Literal{Kind: LitString, Text: x}
	case []byte:
		return Literal{Kind: LitString, Text: string(x)}
	case bool:
		return Literal{Kind: LitBool, Text: fmt.Sprint(x)}
	}
	raw, err := schema.MarshalLiteral(t, v)
	if err != nil {
		return Literal{Kind: LitString, Text: fmt.Sprint(v)}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return Literal{Kind: LitString, Text: s}
	}
	return Literal{Kind: LitNumber, Text: string(raw)}
}

// FieldIDs returns the ids of the fields the expression reads, in order of
// first use.
func (b *Bound) FieldIDs() []int {
	var ids []int
	seen := map[int]bool{}
	var walk func(node)
	walk = func(n node) {
		switch x := n.(type) {
		case andNode:
			walk(x.l)
			walk(x.r)
		case orNode:
			walk(x.l)
			walk(x.r)
		case *leaf:
			if !seen[x.field.ID] {
				seen[x.field.ID] = true
				ids = append(ids, x.field.ID)
			}
		}
	}
	walk(b.root)
	return ids
}

// ColumnIDs returns the field ids of every column the expression names, in
// the order first named, including those binding folded away (a
// comparison with a literal out of the field type's range, an IN list all
// of whose values are, a predicate ANDed with false): the columns a read
// narrowed to fewer columns must still hold for the expression to bind to
// it again. [Bound.FieldIDs] returns those the bound expression tests.
func (b *Bound) ColumnIDs() []int {
	return slices.Clone(b.cols)
}

// AlwaysTrue reports whether the expression folded to true (it selects every
// row).
func (b *Bound) AlwaysTrue() bool {
	c, ok := b.root.(constNode)
	return ok && bool(c)
}
