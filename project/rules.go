package project

import (
	"fmt"
	"strings"
	"time"

	"github.com/lakecat/lakecat/schema"
)

// Rules is the set of type changes a table format allows between the type a
// data file was written with and the type a read schema asks for. It is a
// value: use [IcebergV2], [IcebergV3], [Hudi] or [Paimon]. The zero value is
// [IcebergV2].
//
// The package documentation holds the matrix of every rule in one table.
type Rules struct {
	format tableFormat
	// loc is the session time zone of Paimon's casts between wall-clock
	// timestamps and instants (nil: UTC).
	loc *time.Location
}

// WithTimeZone returns r with loc as the session time zone of Paimon's casts
// that relate a wall clock (TIMESTAMP) to an instant (TIMESTAMP WITH LOCAL
// TIME ZONE): TIMESTAMP ↔ TIMESTAMP_LTZ, either to INT/BIGINT (seconds of
// the instant), DATE, TIME or STRING (the wall clock in the zone), and
// INT/BIGINT seconds to either. Paimon Java takes the JVM's default zone;
// lakecat's default (nil, or never calling WithTimeZone) is UTC, under which
// the wall clock and the instant have the same number. Other rules ignore it.
func (r Rules) WithTimeZone(loc *time.Location) Rules {
	r.loc = loc
	return r
}

// TimeZone returns the session time zone set by [Rules.WithTimeZone] (UTC
// when none).
func (r Rules) TimeZone() *time.Location {
	if r.loc == nil {
		return time.UTC
	}
	return r.loc
}

// zone returns the session time zone as the cast kernels take it: nil for
// UTC or for rules other than Paimon's.
func (r Rules) zone() *time.Location {
	if r.format != formatPaimon || r.loc == nil || r.loc == time.UTC || r.loc.String() == "UTC" {
		return nil
	}
	return r.loc
}

type tableFormat uint8

const (
	formatIcebergV2 tableFormat = iota
	formatIcebergV3
	formatHudi
	formatPaimon
)

// The promotion rules of each table format (see the package documentation
// for the matrix).
var (
	// IcebergV2 is Iceberg format versions 1 and 2 (table spec, "Schema
	// Evolution", valid type promotions): int→long, float→double,
	// decimal(P,S)→decimal(P′,S) with P′ ≥ P.
	IcebergV2 = Rules{format: formatIcebergV2}
	// IcebergV3 is Iceberg format version 3: the v2 promotions plus
	// unknown→any type and date→timestamp or timestamp_ns (not to the
	// timestamptz types).
	IcebergV3 = Rules{format: formatIcebergV3}
	// Hudi is Apache Hudi's schema evolution on read (Hudi docs, "Schema
	// Evolution", type promotions): int→long/float/double, long→float/double,
	// float→double, numeric→decimal, decimal widening that keeps the integer
	// digits (scale may grow), numeric, decimal, date and timestamp→string,
	// string↔binary, string→decimal and string→date.
	Hudi = Rules{format: formatHudi}
	// Paimon is Apache Paimon's read-time casts (Paimon's CastExecutors):
	// any numeric↔numeric including narrowing, boolean↔numeric, most
	// types→string, string→boolean/numeric/decimal/date/time/timestamp/binary,
	// timestamp↔timestamp, timestamp→date/time, date→timestamp, and
	// timestamp↔int/bigint seconds. Casts between a wall clock and an
	// instant use the session time zone ([Rules.WithTimeZone], default
	// UTC). A value that does not fit fails the batch with a *[ValueError].
	Paimon = Rules{format: formatPaimon}
)

var ruleNames = [...]string{
	formatIcebergV2: "iceberg",
	formatIcebergV3: "iceberg-v3",
	formatHudi:      "hudi",
	formatPaimon:    "paimon",
}

// SameFormat reports whether r and o are the rules of the same table format,
// whatever their session time zones (Rules values with different zones are
// not ==).
func (r Rules) SameFormat(o Rules) bool { return r.format == o.format }

// String returns the rules' name as [ParseRules] accepts it: "iceberg",
// "iceberg-v3", "hudi" or "paimon".
func (r Rules) String() string {
	if int(r.format) < len(ruleNames) {
		return ruleNames[r.format]
	}
	return fmt.Sprintf("Rules(%d)", r.format)
}

// ParseRules returns the rules named name ("iceberg", "iceberg-v2",
// "iceberg-v1", "iceberg-v3", "hudi", "paimon"; case-insensitive), or an
// error naming the accepted names.
func ParseRules(name string) (Rules, error) {
	switch strings.ToLower(name) {
	case "iceberg", "iceberg-v1", "iceberg-v2", "icebergv2":
		return IcebergV2, nil
	case "iceberg-v3", "icebergv3":
		return IcebergV3, nil
	case "hudi":
		return Hudi, nil
	case "paimon":
		return Paimon, nil
	}
	return Rules{}, fmt.Errorf("project: unknown rules %q (want iceberg, iceberg-v3, hudi or paimon)", name)
}

// Allows reports whether a column written as file can be read as read under
// r. Both must be primitive types; nested types are matched field by field by
// [NewPlan].
func (r Rules) Allows(file, read schema.PrimitiveType) bool {
	ok, _ := r.allows(file, read)
	return ok
}

// Promotes reports whether a table schema may change a column's type from
// from to to under r: the type promotions of the table format's schema
// evolution, which is what evolve commits (Iceberg table spec, "Schema
// Evolution": int→long, float→double, decimal(P,S)→decimal(P′,S) with
// P′ ≥ P; v3 adds date→timestamp and timestamp_ns; Hudi and Paimon their own
// rules, see the package documentation). It is [Rules.Allows] without the
// equivalences that only a data file's physical type needs: a fixed[16]
// file column read as uuid (a writer without the UUID annotation) is read,
// but fixed[16]→uuid is no promotion.
func (r Rules) Promotes(from, to schema.PrimitiveType) bool {
	if to.K == schema.KindUUID && from.K != schema.KindUUID {
		return false
	}
	return r.Allows(from, to)
}

// AllowsMapKey reports whether a map key written with primitive type file
// can be read with primitive type read under r: only when no conversion is
// needed (the same type; fixed[16] as uuid; char, varchar and string as one
// another). A map key is never promoted, so that the keys of one map stay
// distinct and ordered as written; Iceberg Java's UpdateSchema refuses any
// change to a map key's type, and [NewPlan] and evolve apply this one rule.
func (r Rules) AllowsMapKey(file, read schema.PrimitiveType) bool {
	switch {
	case file.K == read.K && file.K != schema.KindDecimal && file.K != schema.KindFixed:
		return true
	case isString(file.K) && isString(read.K):
		return true
	case file.K == schema.KindFixed && read.K == schema.KindUUID:
		return file.Length == 16
	}
	return schema.Equal(file, read)
}

// allows reports whether file → read is allowed and, when it is not, a
// detail for the error message ("" for the plain case).
func (r Rules) allows(f, t schema.PrimitiveType) (bool, string) {
	fk, tk := f.K, t.K
	// Under every rule.
	switch {
	case fk == tk && fk != schema.KindDecimal && fk != schema.KindFixed:
		return true, ""
	case fk == schema.KindFixed && tk == schema.KindFixed:
		if f.Length == t.Length {
			return true, ""
		}
		return false, "a fixed column's length cannot change"
	case tk == schema.KindUUID:
		if fk == schema.KindFixed {
			if f.Length == 16 {
				return true, ""
			}
			return false, "a uuid is read only from fixed[16]"
		}
	case isString(fk) && isString(tk):
		return true, ""
	case isInt(fk) && isInt(tk) && intRank(tk) >= intRank(fk):
		return true, ""
	case fk == schema.KindFloat && tk == schema.KindDouble,
		fk == schema.KindFloat16 && (tk == schema.KindFloat || tk == schema.KindDouble):
		return true, ""
	case fk == schema.KindDecimal && tk == schema.KindDecimal && f.Scale == t.Scale && t.Precision >= f.Precision:
		return true, ""
	}
	switch r.format {
	case formatIcebergV2:
		if fk == schema.KindDecimal && tk == schema.KindDecimal && f.Scale != t.Scale {
			return false, "a decimal's scale cannot change"
		}
	case formatIcebergV3:
		switch {
		case fk == schema.KindUnknown:
			return true, ""
		case fk == schema.KindDate && (tk == schema.KindTimestamp || tk == schema.KindTimestampNs):
			return true, ""
		case fk == schema.KindDecimal && tk == schema.KindDecimal && f.Scale != t.Scale:
			return false, "a decimal's scale cannot change"
		}
	case formatHudi:
		switch {
		case isInt(fk) && isFloat(tk):
			return true, ""
		case (isInt(fk) || isFloat(fk)) && tk == schema.KindDecimal:
			return true, ""
		case fk == schema.KindDecimal && tk == schema.KindDecimal:
			if t.Scale >= f.Scale && t.Precision-t.Scale >= f.Precision-f.Scale {
				return true, ""
			}
			return false, "a decimal may only widen, keeping its integer digits"
		case (isNumeric(fk) || fk == schema.KindDate || isTimestamp(fk)) && isString(tk):
			return true, ""
		case isString(fk) && (tk == schema.KindBinary || tk == schema.KindDecimal || tk == schema.KindDate):
			return true, ""
		case fk == schema.KindBinary && isString(tk):
			return true, ""
		}
	case formatPaimon:
		switch {
		case isNumeric(fk) && isNumeric(tk):
			return true, ""
		case fk == schema.KindBoolean && isNumeric(tk), isNumeric(fk) && tk == schema.KindBoolean:
			return true, ""
		case isString(tk) && (isNumeric(fk) || fk == schema.KindBoolean || fk == schema.KindDate ||
			fk == schema.KindTime || isTimestamp(fk) || fk == schema.KindBinary || fk == schema.KindFixed):
			return true, ""
		case isString(fk) && (isNumeric(tk) || tk == schema.KindBoolean || tk == schema.KindDate ||
			tk == schema.KindTime || isTimestamp(tk) || tk == schema.KindBinary):
			return true, ""
		case isTimestamp(fk) && (isTimestamp(tk) || tk == schema.KindDate || tk == schema.KindTime):
			return true, ""
		case isTimestamp(fk) && (tk == schema.KindInt || tk == schema.KindLong),
			isInt(fk) && isTimestamp(tk):
			// Paimon's TimestampToNumericPrimitiveCastRule and
			// NumericPrimitiveToTimestamp: seconds since the epoch.
			return true, ""
		case (fk == schema.KindDate || fk == schema.KindTime) && isTimestamp(tk):
			return true, ""
		case fk == schema.KindFixed && tk == schema.KindBinary:
			return true, ""
		}
	}
	if fk == schema.KindDecimal && tk == schema.KindDecimal && t.Precision < f.Precision {
		return false, "a decimal's precision cannot shrink"
	}
	return false, ""
}

func isInt(k schema.Kind) bool {
	return k == schema.KindTinyInt || k == schema.KindSmallInt || k == schema.KindInt || k == schema.KindLong
}

func intRank(k schema.Kind) int {
	switch k {
	case schema.KindTinyInt:
		return 1
	case schema.KindSmallInt:
		return 2
	case schema.KindInt:
		return 3
	}
	return 4
}

func isFloat(k schema.Kind) bool { return k == schema.KindFloat || k == schema.KindDouble }

func isNumeric(k schema.Kind) bool { return isInt(k) || isFloat(k) || k == schema.KindDecimal }

func isString(k schema.Kind) bool {
	return k == schema.KindString || k == schema.KindChar || k == schema.KindVarchar
}

func isTimestamp(k schema.Kind) bool {
	return k == schema.KindTimestamp || k == schema.KindTimestampTz || k == schema.KindTimestampNs ||
		k == schema.KindTimestampTzNs
}
