package project

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat/schema"
)

// Every NewPlan error: exact class and message.
func TestNewPlanErrors(t *testing.T) {
	cases := []struct {
		name       string
		file, read *schema.Schema
		opts       Options
		sentinel   error
		want       string
	}{
		{"long from string", sch(fld(1, "n", schema.String)), sch(fld(1, "n", schema.Long)), Options{}, ErrIncompatibleType,
			`project: file "f.parquet": field 1 (n): incompatible type: file type string, read type long`},
		{"long to int under iceberg", sch(fld(1, "n", schema.Long)), sch(fld(1, "n", schema.Int)), Options{}, ErrIncompatibleType,
			`project: file "f.parquet": field 1 (n): incompatible type: file type long, read type int`},
		{"decimal precision shrinks", sch(fld(1, "d", schema.Decimal(10, 2))), sch(fld(1, "d", schema.Decimal(8, 2))), Options{}, ErrIncompatibleType,
			`project: file "f.parquet": field 1 (d): incompatible type: a decimal's precision cannot shrink: file type decimal(10, 2), read type decimal(8, 2)`},
		{"hudi decimal loses integer digits", sch(fld(1, "d", schema.Decimal(10, 2))), sch(fld(1, "d", schema.Decimal(11, 4))), Options{Rules: Hudi}, ErrIncompatibleType,
			`project: file "f.parquet": field 1 (d): incompatible type: a decimal may only widen, keeping its integer digits: file type decimal(10, 2), read type decimal(11, 4)`},
		{"v3 date to timestamptz", sch(fld(1, "t", schema.Date)), sch(fld(1, "t", schema.TimestampTz)), Options{Rules: IcebergV3}, ErrIncompatibleType,
			`project: file "f.parquet": field 1 (t): incompatible type: file type date, read type timestamptz`},
		{"nested required missing", sch(fld(1, "s", structOf(fld(2, "a", schema.Int)))),
			sch(fld(1, "s", structOf(fld(2, "a", schema.Int), req(3, "b", schema.Long)))), Options{}, ErrRequiredFieldMissing,
			`project: file "f.parquet": field 3 (s.b): missing required field: read type long, not in the file and no initial-default`},
		{"list element promotion not allowed", sch(fld(1, "l", schema.NewList(2, schema.Double, false))),
			sch(fld(1, "l", schema.NewList(2, schema.Float, false))), Options{}, ErrIncompatibleType,
			`project: file "f.parquet": field 2 (l.element): incompatible type: file type double, read type float`},
		{"list read from map", sch(fld(1, "x", schema.NewMap(2, schema.String, 3, schema.Int, false))),
			sch(fld(1, "x", schema.NewList(4, schema.Int, false))), Options{}, ErrIncompatibleType,
			`project: file "f.parquet": field 1 (x): incompatible type: file type map<string, int>, read type list<int>`},
		{"bad initial-default", sch(fld(1, "a", schema.Int)),
			sch(fld(1, "a", schema.Int), &schema.Field{ID: 2, Name: "b", Type: schema.Decimal(3, 0), InitialDefault: schema.DecimalValue{Lo: 1000}}), Options{}, ErrInvalidValue,
			`project: file "f.parquet": field 2 (b): invalid value: initial-default: 1000 does not fit decimal(3, 0)`},
		{"null constant for required", sch(fld(1, "a", schema.Int)), sch(req(1, "a", schema.Int)), Options{Constants: map[int]any{1: nil}}, ErrInvalidValue,
			`project: file "f.parquet": field 1 (a): invalid value: a required field cannot be a null constant: file type int, read type int`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.FileName = "f.parquet"
			_, err := NewPlan(c.file, c.read, c.opts)
			var fe *FieldError
			if !errors.As(err, &fe) || !errors.Is(err, c.sentinel) {
				t.Fatalf("err = %v (%T), want *FieldError matching %v", err, err, c.sentinel)
			}
			if err.Error() != c.want {
				t.Errorf("err = %s\nwant  %s", err, c.want)
			}
		})
	}
}

// A6 (Hudi): files written before and after int→long both read as long.
func TestCaseA6(t *testing.T) {
	read := sch(fld(1, "userId", schema.Long))
	applyJSON(t, mustPlan(t, sch(fld(1, "userId", schema.Int)), read, Options{Rules: Hudi}), `[{"userId":1},{"userId":2}]`, `[{"userId":1},{"userId":2}]`)
	applyJSON(t, mustPlan(t, read, read, Options{Rules: Hudi}), `[{"userId":3}]`, `[{"userId":3}]`)
}
