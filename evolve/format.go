package evolve

import (
	"fmt"

	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// Format names a table format and version whose schema evolution rules
// apply. It selects which type changes are promotions, whether a required
// column may be added with an initial-default, and which columns are
// protected.
//
// [Format.Rules] gives the matching promotion rules of the project package,
// which govern reads; type changes are checked against those.
type Format int

// The formats.
const (
	// IcebergV2 is an Iceberg table of format version 1 or 2.
	IcebergV2 Format = iota
	// IcebergV3 is an Iceberg table of format version 3: date→timestamp,
	// date→timestamp_ns and unknown→any type are promotions too, and a
	// required column may be added with an initial-default.
	IcebergV3
	// Paimon is an Apache Paimon table.
	Paimon
	// Hudi is an Apache Hudi table.
	Hudi
)

// String returns "iceberg-v2", "iceberg-v3", "paimon" or "hudi".
func (f Format) String() string {
	switch f {
	case IcebergV2:
		return "iceberg-v2"
	case IcebergV3:
		return "iceberg-v3"
	case Paimon:
		return "paimon"
	case Hudi:
		return "hudi"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// IcebergFormat returns the Format for an Iceberg table of the given format
// version (1, 2 or 3; a later version is treated as 3).
func IcebergFormat(formatVersion int) Format {
	if formatVersion >= 3 {
		return IcebergV3
	}
	return IcebergV2
}

func (f Format) isIceberg() bool { return f == IcebergV2 || f == IcebergV3 }

// Rules returns the project package's promotion rules for f, which the
// reader applies when it reads a data file under a newer schema.
func (f Format) Rules() project.Rules {
	switch f {
	case IcebergV3:
		return project.IcebergV3
	case Paimon:
		return project.Paimon
	case Hudi:
		return project.Hudi
	}
	return project.IcebergV2
}

// CanPromote reports whether a column of type from may be changed to type to
// under f's rules: equal types always; two primitive types when
// f.Rules().Promotes (the reader's rules without the file-only
// equivalences such as fixed[16] read as uuid); for Iceberg v3 also unknown
// to any type, nested ones included. A map key's type never changes
// ([project.Rules.AllowsMapKey]). So that a type change this package
// accepts is one the reader can serve, the rules are the reader's:
//
//   - Iceberg (table spec, "Schema Evolution"): int→long, float→double,
//     decimal(P,S)→decimal(P′,S) with P′≥P; v3 adds date→timestamp,
//     date→timestamp_ns and unknown→any type.
//   - Paimon: the casts Paimon's ALTER TABLE accepts (its explicit casts),
//     narrowing included; a value that does not fit fails the read.
//   - Hudi: Hudi's schema-on-read promotions.
//
// See the project package for the full matrix.
func (f Format) CanPromote(from, to schema.Type) bool { return canPromote(f.Rules(), from, to, false) }

// canPromote implements [Format.CanPromote] for the rules r; with file set,
// from is a data file's type and the reader's [project.Rules.Allows]
// decides, as it does when the file is read.
func canPromote(r project.Rules, from, to schema.Type, file bool) bool {
	if schema.Equal(from, to) {
		return true
	}
	if from.Kind() == schema.KindUnknown && r.SameFormat(project.IcebergV3) {
		return true
	}
	fp, ok1 := from.(schema.PrimitiveType)
	tp, ok2 := to.(schema.PrimitiveType)
	if !ok1 || !ok2 {
		return false
	}
	if file {
		return r.Allows(fp, tp)
	}
	return r.Promotes(fp, tp)
}

func isTimestamp(k schema.Kind) bool {
	return k == schema.KindTimestamp || k == schema.KindTimestampTz ||
		k == schema.KindTimestampNs || k == schema.KindTimestampTzNs
}

// PartitionSource is one partition field's source column and transform, as
// a table's partition specs give them (Iceberg "source-id" and "transform":
// "identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour",
// "void").
type PartitionSource struct {
	SourceID  int
	Transform string
}

// transformKeepsValues reports whether an Iceberg partition transform gives
// the same value for a value of type from and the same value promoted to
// type to. Integer and float widening and decimal precision widening keep
// every transform's result (bucket hashes int and long alike; truncate and
// identity keep the number). date→timestamp keeps year, month and day but
// not identity (a date is not a timestamp) nor bucket (a date hashes as days,
// a timestamp as microseconds). unknown has only null values.
func transformKeepsValues(transform string, from, to schema.Type) bool {
	if from.Kind() != schema.KindDate || !isTimestamp(to.Kind()) {
		return true
	}
	switch transform {
	case "year", "month", "day", "void":
		return true
	}
	return false
}
