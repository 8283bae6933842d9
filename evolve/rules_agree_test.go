package evolve

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// TestMapKeyAndUUIDChangesRefused: a map key's type never changes (Iceberg
// Java refuses it and the reader cannot serve it), and fixed[16]→uuid is no
// promotion; both were committed (UpdateColumnType) and passed CheckRead.
func TestMapKeyAndUUIDChangesRefused(t *testing.T) {
	base := schema.New(0,
		opt(1, "m", schema.NewMap(2, schema.Int, 3, schema.Int, false)),
		opt(4, "f", schema.Fixed(16)))
	for _, f := range []Format{IcebergV2, IcebergV3, Hudi, Paimon} {
		mustFail(t, NewUpdate().ForFormat(f).UpdateColumnType("m.key", schema.Long), base, 4, "incompatible type change|m.key")
		mustFail(t, NewUpdate().ForFormat(f).UpdateColumnType("f", schema.UUID), base, 4, "incompatible type change|f")
		// The map value is promoted as any column.
		want := schema.New(0, opt(1, "m", schema.NewMap(2, schema.Int, 3, schema.Long, false)), opt(4, "f", schema.Fixed(16)))
		mustApply(t, NewUpdate().ForFormat(f).UpdateColumnType("m.value", schema.Long), base, 4, want, 4)
	}
	read := schema.New(0, opt(1, "m", schema.NewMap(2, schema.Long, 3, schema.Int, false)))
	file := schema.New(0, opt(1, "m", schema.NewMap(2, schema.Int, 3, schema.Int, false)))
	err := CheckRead(read, file, project.IcebergV2)
	var ce *CompatibilityError
	if !errors.As(err, &ce) || err.Error() != "evolve: read incompatible (iceberg): m.key (id 2): type cannot be promoted: int → long" {
		t.Errorf("CheckRead map key int→long: %v", err)
	}
	if _, perr := project.NewPlan(file, read, project.Options{}); !errors.Is(perr, project.ErrIncompatibleType) {
		t.Errorf("NewPlan map key int→long: %v, want ErrIncompatibleType", perr)
	}
}

// TestEvolveAndReadAgree: for every pair of primitive types and every
// format, what evolve commits (CanPromote) the reader reads (NewPlan), and
// CheckRead of a file of the old type under the new one says the same as
// NewPlan, for a top-level column, a list element, a map value and a map
// key.
func TestEvolveAndReadAgree(t *testing.T) {
	prims := []schema.PrimitiveType{
		schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.Long, schema.Float, schema.Double,
		schema.Decimal(9, 2), schema.Decimal(18, 2), schema.Decimal(18, 3), schema.Date, schema.Time,
		schema.Timestamp, schema.TimestampTz, schema.TimestampNs, schema.TimestampTzNs,
		schema.String, schema.UUID, schema.Fixed(16), schema.Fixed(4), schema.Binary,
	}
	wrap := map[string]func(schema.Type) schema.Type{
		"column":    func(t schema.Type) schema.Type { return t },
		"element":   func(t schema.Type) schema.Type { return schema.NewList(2, t, false) },
		"map value": func(t schema.Type) schema.Type { return schema.NewMap(2, schema.String, 3, t, false) },
		"map key":   func(t schema.Type) schema.Type { return schema.NewMap(2, t, 3, schema.String, false) },
	}
	path := map[string]string{"column": "c", "element": "c.element", "map value": "c.value", "map key": "c.key"}
	for _, f := range []Format{IcebergV2, IcebergV3, Hudi, Paimon} {
		for _, from := range prims {
			for _, to := range prims {
				if schema.Equal(from, to) {
					continue
				}
				for where, w := range wrap {
					base := schema.New(0, opt(1, "c", w(from)))
					next, _, aerr := NewUpdate().ForFormat(f).UpdateColumnType(path[where], to).Apply(base, 3)
					p, perr := project.NewPlan(base, schema.New(0, opt(1, "c", w(to))), project.Options{Rules: f.Rules()})
					if p != nil {
						p.Release()
					}
					cerr := CheckRead(schema.New(0, opt(1, "c", w(to))), base, f.Rules())
					if aerr == nil && perr != nil {
						t.Errorf("%s %s %s→%s: evolve commits %v, the reader refuses: %v", f, where, from, to, next, perr)
					}
					if (cerr == nil) != (perr == nil) {
						t.Errorf("%s %s %s→%s: CheckRead %v, NewPlan %v", f, where, from, to, cerr, perr)
					}
					if where == "map key" && aerr == nil {
						t.Errorf("%s map key %s→%s committed", f, from, to)
					}
					if to.K == schema.KindUUID && aerr == nil {
						t.Errorf("%s %s %s→uuid committed", f, where, from)
					}
				}
			}
		}
	}
}
