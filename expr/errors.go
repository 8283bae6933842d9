package expr

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lakecat/lakecat"
)

// ErrSyntax is matched by a [*SyntaxError]: a filter string that does not
// parse.
var ErrSyntax = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "expr: syntax error")

// ErrType is matched by a [*TypeError]: a literal or an operator that does
// not fit the type of the field it is compared with.
var ErrType = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "expr: type mismatch")

// ErrUnknownColumn is matched by the error of [Bind] for a column the read
// schema does not have.
var ErrUnknownColumn = lakecat.NewSentinel(lakecat.ErrNotFound, "expr: unknown column")

// SyntaxError is a filter string that does not parse: Pos is the byte
// offset of the offending character in Expr.
type SyntaxError struct {
	Expr string
	Pos  int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("expr: at character %d of %q: %s", e.Pos+1, clip(e.Expr, e.Pos), clip(e.Msg, 0))
}

// maxEcho caps the bytes of a filter an error message repeats.
const maxEcho = 200

// clip returns s when it is at most maxEcho bytes, else the maxEcho bytes
// from its start (or, when pos lies past them, around pos) with "…" where
// it was cut, cut on UTF-8 boundaries.
func clip(s string, pos int) string {
	if len(s) <= maxEcho {
		return s
	}
	start := 0
	if pos >= maxEcho {
		start = min(pos-maxEcho/2, len(s)-maxEcho)
	}
	end := start + maxEcho
	for start > 0 && !utf8.RuneStart(s[start]) {
		start++
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	out := s[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(s) {
		out += "…"
	}
	return out
}

// Pointer returns the filter on one line and a caret under the offending
// character on the next.
func (e *SyntaxError) Pointer() string {
	return e.Expr + "\n" + strings.Repeat(" ", e.Pos) + "^"
}

// Unwrap returns [ErrSyntax].
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// TypeError is a predicate whose literal or operator does not fit the
// field: Column names the field as written, FieldID and Type are the bound
// field's.
type TypeError struct {
	Pred    string
	Column  string
	FieldID int
	Type    string
	Msg     string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("expr: %s: field %s (id %d, %s): %s", clip(e.Pred, 0), e.Column, e.FieldID, e.Type, e.Msg)
}

// Unwrap returns [ErrType].
func (e *TypeError) Unwrap() error { return ErrType }

// ErrAmbiguousColumn is matched by the error of [Bind] for a column that
// names no field exactly and more than one case-insensitively.
var ErrAmbiguousColumn = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "expr: ambiguous column")

// ColumnError is a predicate whose column [Bind] cannot resolve in the read
// schema: Column as written; Matches, when it holds two or more dotted
// paths, the fields it names case-insensitively (ambiguous: matches
// [ErrAmbiguousColumn]), else none (unknown: matches [ErrUnknownColumn]),
// and Names the read schema's top-level field names.
type ColumnError struct {
	Pred    string
	Column  string
	Matches []string
	Names   []string
}

func (e *ColumnError) Error() string {
	if len(e.Matches) > 1 {
		return fmt.Sprintf("%v %q in %s: it matches %s case-insensitively; write one of them exactly", ErrAmbiguousColumn, e.Column, clip(e.Pred, 0), strings.Join(e.Matches, " and "))
	}
	return fmt.Sprintf("%v %q in %s (the read schema has %s)", ErrUnknownColumn, e.Column, clip(e.Pred, 0), strings.Join(e.Names, ", "))
}

// Unwrap returns [ErrAmbiguousColumn] or [ErrUnknownColumn].
func (e *ColumnError) Unwrap() error {
	if len(e.Matches) > 1 {
		return ErrAmbiguousColumn
	}
	return ErrUnknownColumn
}
