package evolve

import (
	"fmt"

	"github.com/lakecat/lakecat/schema"
)

// Format names a table format and version whose schema evolution rules
// apply. It selects which type changes are promotions, whether a required
// column may be added with an initial-default, and which columns are
// protected.
//
// The project package's promotion rules (project.IcebergV2, IcebergV3,
// Paimon, Hudi) govern reads; Format mirrors them here so that a change this
// package accepts is one those reads can serve.
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

// CanPromote reports whether data of type from may be read as type to under
// f's rules: equal types always; otherwise only primitive promotions (and,
// for Iceberg v3, unknown to any type).
//
// Iceberg (table spec, "Schema Evolution" / "Type promotion"): int→long,
// float→double, decimal(P,S)→decimal(P′,S) with P′≥P; v3 adds date→timestamp,
// date→timestamp_ns and unknown→anything. A data file's tinyint and smallint
// (Parquet INT(8), INT(16)) are read as int or long under every format.
//
// Paimon (DataTypeCasts implicit casts): integer widening
// tinyint→smallint→int→bigint, integers and decimals to float and double,
// integers to a decimal with room for their digits, decimal widening that
// keeps every integer and fraction digit, float→double, char→varchar→string
// with lengths not shrinking, binary widening, date→timestamp, timestamp
// precision increase and timestamp→timestamp_ltz.
//
// Hudi (schema-on-read evolution): int→long, float, double, decimal and
// string; long→float, double, decimal and string; float→double, decimal and
// string; double→decimal and string; decimal widening and decimal→string;
// string→decimal, date and binary; date→string; binary→string.
func (f Format) CanPromote(from, to schema.Type) bool {
	if schema.Equal(from, to) {
		return true
	}
	if from.Kind() == schema.KindUnknown && f == IcebergV3 {
		return true
	}
	fp, ok1 := from.(schema.PrimitiveType)
	tp, ok2 := to.(schema.PrimitiveType)
	if !ok1 || !ok2 {
		return false
	}
	if fp == tp {
		return true
	}
	switch f {
	case IcebergV2, IcebergV3:
		return icebergPromote(fp, tp, f == IcebergV3)
	case Paimon:
		return paimonPromote(fp, tp)
	case Hudi:
		return hudiPromote(fp, tp)
	}
	return false
}

func icebergPromote(from, to schema.PrimitiveType, v3 bool) bool {
	switch from.K {
	case schema.KindTinyInt, schema.KindSmallInt:
		return to.K == schema.KindInt || to.K == schema.KindLong
	case schema.KindInt:
		return to.K == schema.KindLong
	case schema.KindFloat:
		return to.K == schema.KindDouble
	case schema.KindDecimal:
		return to.K == schema.KindDecimal && to.Scale == from.Scale && to.Precision >= from.Precision
	case schema.KindDate:
		return v3 && (to.K == schema.KindTimestamp || to.K == schema.KindTimestampNs)
	}
	return false
}

// intRank orders the integer kinds by width; 0 for any other kind.
func intRank(k schema.Kind) int {
	switch k {
	case schema.KindTinyInt:
		return 1
	case schema.KindSmallInt:
		return 2
	case schema.KindInt:
		return 3
	case schema.KindLong:
		return 4
	}
	return 0
}

// intDigits is the number of decimal digits an integer kind needs.
func intDigits(k schema.Kind) int {
	return [...]int{0, 3, 5, 10, 19}[intRank(k)]
}

func isTimestamp(k schema.Kind) bool {
	return k == schema.KindTimestamp || k == schema.KindTimestampTz ||
		k == schema.KindTimestampNs || k == schema.KindTimestampTzNs
}

// tsPrecision is the fractional-second digits of a timestamp type: the
// declared Paimon precision, else 6 (micros) or 9 (nanos).
func tsPrecision(p schema.PrimitiveType) int {
	if p.Precision > 0 {
		return p.Precision
	}
	if p.K == schema.KindTimestampNs || p.K == schema.KindTimestampTzNs {
		return 9
	}
	return 6
}

func isTz(k schema.Kind) bool { return k == schema.KindTimestampTz || k == schema.KindTimestampTzNs }

func paimonPromote(from, to schema.PrimitiveType) bool {
	fr, tr := intRank(from.K), intRank(to.K)
	switch {
	case fr > 0 && tr > 0:
		return tr >= fr
	case fr > 0 && to.K == schema.KindDecimal:
		return to.Precision-to.Scale >= intDigits(from.K)
	case (fr > 0 || from.K == schema.KindDecimal || from.K == schema.KindFloat) && to.K == schema.KindDouble:
		return true
	case (fr > 0 || from.K == schema.KindDecimal) && to.K == schema.KindFloat:
		return true
	case from.K == schema.KindDecimal && to.K == schema.KindDecimal:
		return to.Scale >= from.Scale && to.Precision-to.Scale >= from.Precision-from.Scale
	case from.K == schema.KindChar && (to.K == schema.KindChar || to.K == schema.KindVarchar):
		return to.Length >= from.Length
	case from.K == schema.KindVarchar && to.K == schema.KindVarchar:
		return to.Length >= from.Length
	case (from.K == schema.KindChar || from.K == schema.KindVarchar) && to.K == schema.KindString:
		return true
	case from.K == schema.KindFixed && to.K == schema.KindFixed:
		return to.Length >= from.Length
	case (from.K == schema.KindFixed || from.K == schema.KindBinary) && to.K == schema.KindBinary:
		return to.Length == 0 || (from.Length > 0 && to.Length >= from.Length)
	case from.K == schema.KindDate && isTimestamp(to.K):
		return true
	case isTimestamp(from.K) && isTimestamp(to.K):
		return tsPrecision(to) >= tsPrecision(from) && (isTz(to.K) || !isTz(from.K))
	}
	return false
}

func hudiPromote(from, to schema.PrimitiveType) bool {
	switch from.K {
	case schema.KindTinyInt, schema.KindSmallInt, schema.KindInt:
		switch to.K {
		case schema.KindInt, schema.KindLong, schema.KindFloat, schema.KindDouble, schema.KindString:
			return intRank(to.K) == 0 || intRank(to.K) >= intRank(from.K)
		case schema.KindDecimal:
			return to.Precision-to.Scale >= intDigits(from.K)
		}
	case schema.KindLong:
		switch to.K {
		case schema.KindFloat, schema.KindDouble, schema.KindString:
			return true
		case schema.KindDecimal:
			return to.Precision-to.Scale >= intDigits(from.K)
		}
	case schema.KindFloat:
		return to.K == schema.KindDouble || to.K == schema.KindString || to.K == schema.KindDecimal
	case schema.KindDouble:
		return to.K == schema.KindString || to.K == schema.KindDecimal
	case schema.KindDecimal:
		if to.K == schema.KindDecimal {
			return to.Scale >= from.Scale && to.Precision-to.Scale >= from.Precision-from.Scale
		}
		return to.K == schema.KindString
	case schema.KindString:
		return to.K == schema.KindDecimal || to.K == schema.KindDate || to.K == schema.KindBinary
	case schema.KindDate:
		return to.K == schema.KindString
	case schema.KindBinary:
		return to.K == schema.KindString
	}
	return false
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
