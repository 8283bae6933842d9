package project

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/lakecat/lakecat/schema"
)

// Action names what a read does for one read field in an [Explanation].
type Action string

// The actions of an [Explanation].
const (
	// ActionTake reads the field from a file column, renamed or rebuilt
	// (nested) as needed, without changing its values.
	ActionTake Action = "take"
	// ActionPromote reads the field from a file column of another type and
	// converts every value (int→long, float→double, a cast).
	ActionPromote Action = "promote"
	// ActionNull fills nulls: the file lacks the optional field.
	ActionNull Action = "null"
	// ActionDefault fills the field's initial-default: the file lacks it.
	ActionDefault Action = "default"
	// ActionConstant fills a constant from [Options.Constants].
	ActionConstant Action = "constant"
)

// Explanation describes a [Plan] field by field: how lakecat plan prints it.
// It marshals to JSON with encoding/json; [Explanation.String] renders it as
// an indented tree.
type Explanation struct {
	File   string `json:"file,omitempty"`
	Rules  string `json:"rules"`
	Fields []Step `json:"fields"`
	// Dropped lists the file columns the read schema does not have (a
	// dropped struct is listed once, without its children).
	Dropped []Dropped `json:"dropped"`
	// RowsFrom is the file leaf decoded only to count rows, when no read
	// field comes from the file.
	RowsFrom string `json:"rows_from,omitempty"`
}

// Step is what the read does for one read field; nested fields are its
// Children (struct fields, a list's element, a map's key and value).
type Step struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required,omitempty"`
	Action   Action `json:"action"`
	// FilePath and FileType name the file column read (take, promote).
	FilePath string `json:"file_path,omitempty"`
	FileType string `json:"file_type,omitempty"`
	// RenamedFrom is the file column's name when it differs from Name.
	RenamedFrom string `json:"renamed_from,omitempty"`
	// PromotedFrom is the file type of a promoted field.
	PromotedFrom string `json:"promoted_from,omitempty"`
	// Value is the default or constant, as text.
	Value string `json:"value,omitempty"`
	// LevelsFrom is the file leaf decoded only for a struct's nulls or a
	// list's lengths, when no requested child is in the file.
	LevelsFrom string `json:"levels_from,omitempty"`
	Children   []Step `json:"children,omitempty"`
}

// Dropped is a file column the read does not decode.
type Dropped struct {
	ID   int    `json:"id"`
	Path string `json:"path"`
	Type string `json:"type"`
}

// Explain returns the plan's explanation.
func (p *Plan) Explain() *Explanation {
	e := &Explanation{File: p.fileName, Rules: p.rules.String(), Fields: explainNodes(p.top), Dropped: p.dropped, RowsFrom: p.rowsFrom}
	if e.Dropped == nil {
		e.Dropped = []Dropped{}
	}
	return e
}

func explainNodes(ns []*node) []Step {
	out := make([]Step, len(ns))
	for i, n := range ns {
		s := Step{ID: n.read.ID, Name: n.read.Name, Type: n.read.Type.String(), Required: n.read.Required, LevelsFrom: n.levels}
		switch n.act {
		case actNull:
			s.Action = ActionNull
		case actDefault:
			s.Action, s.Value = ActionDefault, formatGo(n.read.Type, n.value)
		case actConstant:
			s.Action, s.Value = ActionConstant, formatGo(n.read.Type, n.value)
		default:
			s.Action = ActionTake
			s.FilePath, s.FileType = n.filePath, n.file.Type.String()
			if n.file.Name != n.read.Name {
				s.RenamedFrom = n.file.Name
			}
			_, prim := n.read.Type.(schema.PrimitiveType)
			if n.act == actCast || n.act == actRelabel || (prim && !schema.Equal(n.file.Type, n.read.Type)) {
				s.Action, s.PromotedFrom = ActionPromote, n.file.Type.String()
			}
			s.Children = explainNodes(n.children)
		}
		out[i] = s
	}
	return out
}

// String renders the explanation as an indented tree, one line per read
// field, then the file columns not read; for example
//
//	4 order_shop_id: long  ← order_shop_id (int), promoted from int
//	1 order_id: required long  ← order_id (long)
//	2 name: string  ← order_name (string), renamed from order_name
//	5 note: string  null-filled: not in the file
//	not read from the file:
//	  3 order_user_id: int
func (e *Explanation) String() string {
	var b strings.Builder
	var walk func([]Step, int)
	walk = func(ss []Step, depth int) {
		for _, s := range ss {
			b.WriteString(strings.Repeat("  ", depth))
			req := ""
			if s.Required {
				req = "required "
			}
			fmt.Fprintf(&b, "%d %s: %s%s  ", s.ID, s.Name, req, s.Type)
			switch s.Action {
			case ActionNull:
				b.WriteString("null-filled: not in the file")
			case ActionDefault:
				fmt.Fprintf(&b, "defaulted to %s: not in the file", s.Value)
			case ActionConstant:
				fmt.Fprintf(&b, "constant %s", s.Value)
			default:
				fmt.Fprintf(&b, "← %s (%s)", s.FilePath, s.FileType)
				if s.RenamedFrom != "" {
					fmt.Fprintf(&b, ", renamed from %s", s.RenamedFrom)
				}
				if s.PromotedFrom != "" {
					fmt.Fprintf(&b, ", promoted from %s", s.PromotedFrom)
				}
				if s.LevelsFrom != "" {
					fmt.Fprintf(&b, ", nulls and lengths from %s", s.LevelsFrom)
				}
			}
			b.WriteByte('\n')
			walk(s.Children, depth+1)
		}
	}
	walk(e.Fields, 0)
	if e.RowsFrom != "" {
		fmt.Fprintf(&b, "row count from %s\n", e.RowsFrom)
	}
	if len(e.Dropped) > 0 {
		b.WriteString("not read from the file:\n")
		for _, d := range e.Dropped {
			if d.ID == schema.NoID {
				fmt.Fprintf(&b, "  %s: %s (no field id)\n", d.Path, d.Type)
			} else {
				fmt.Fprintf(&b, "  %d %s: %s\n", d.ID, d.Path, d.Type)
			}
		}
	}
	return b.String()
}

// formatGo formats a default or constant value of type t.
func formatGo(t schema.Type, v any) string {
	if p, ok := t.(schema.PrimitiveType); ok {
		switch x := v.(type) {
		case int32:
			if p.K == schema.KindDate {
				return val{k: vDate, i: int64(x)}.String()
			}
		case int64:
			switch p.K {
			case schema.KindTime:
				return val{k: vTime, i: x}.String()
			case schema.KindTimestamp, schema.KindTimestampTz:
				return val{k: vTSus, i: x}.String()
			case schema.KindTimestampNs, schema.KindTimestampTzNs:
				return val{k: vTSns, i: x}.String()
			}
		}
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case schema.DecimalValue:
		scale := int32(0)
		if p, ok := t.(schema.PrimitiveType); ok {
			scale = int32(p.Scale)
		}
		return decimal128.New(x.Hi, x.Lo).ToString(scale)
	case []byte:
		return fmt.Sprintf("0x%X", x)
	case [16]byte:
		return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
	case map[int]any:
		st, _ := t.(*schema.StructType)
		var parts []string
		if st != nil {
			for _, f := range st.Fields {
				if fv, ok := x[f.ID]; ok {
					parts = append(parts, f.Name+": "+formatGo(f.Type, fv))
				}
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		var et schema.Type
		if lt, ok := t.(*schema.ListType); ok {
			et = lt.Element.Type
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatGo(et, e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}
