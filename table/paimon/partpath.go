package paimon

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/lakecat/lakecat/schema"
)

// partitionPath returns "k1=v1/k2=v2/" for the partition values of a file
// (Paimon's PartitionPathUtils): a null or empty value is spelled with the
// "partition.default-name" option ("__DEFAULT_PARTITION__"); values are
// escaped as Hive does (%XX for '/', '=', ':', '%', control characters, …).
// With "partition.legacy-name" true (the default), a DATE is spelled as its
// day number, as Paimon does; with false, as yyyy-MM-dd. TIMESTAMP, TIME,
// BINARY and FLOAT values of extreme magnitude are not spelled (an error):
// Java's spellings of those were not reproduced.
func partitionPath(sch *schema.PaimonSchema, types []schema.Type, vals []any) (string, error) {
	if len(sch.PartitionKeys) == 0 {
		return "", nil
	}
	def := sch.Options["partition.default-name"]
	if def == "" {
		def = "__DEFAULT_PARTITION__"
	}
	legacy := sch.Options["partition.legacy-name"] != "false"
	var b strings.Builder
	for i, k := range sch.PartitionKeys {
		s, err := partitionString(types[i], vals[i], legacy)
		if err != nil {
			return "", fmt.Errorf("partition key %q: %w", k, err)
		}
		if vals[i] == nil || s == "" {
			s = def
		} else {
			s = escapePathName(s)
		}
		b.WriteString(escapePathName(k))
		b.WriteByte('=')
		b.WriteString(s)
		b.WriteByte('/')
	}
	return b.String(), nil
}

func partitionString(t schema.Type, v any, legacy bool) (string, error) {
	if v == nil {
		return "", nil
	}
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x), nil
	case int8:
		return strconv.Itoa(int(x)), nil
	case int16:
		return strconv.Itoa(int(x)), nil
	case int32:
		if t.Kind() == schema.KindDate && !legacy {
			return time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02"), nil
		}
		return strconv.Itoa(int(x)), nil
	case int64:
		if t.Kind() == schema.KindLong {
			return strconv.FormatInt(x, 10), nil
		}
	case float32:
		if a := math.Abs(float64(x)); a == 0 || (a >= 1e-3 && a < 1e7) {
			return javaFloat(strconv.FormatFloat(float64(x), 'f', -1, 32)), nil
		}
	case float64:
		if a := math.Abs(x); a == 0 || (a >= 1e-3 && a < 1e7) {
			return javaFloat(strconv.FormatFloat(x, 'f', -1, 64)), nil
		}
	case string:
		return x, nil
	case schema.DecimalValue:
		p := t.(schema.PrimitiveType)
		return decimalString(x, p.Scale), nil
	}
	return "", fmt.Errorf("%w: cannot spell a %s partition value in a path", ErrUnsupportedPartition, t)
}

// javaFloat adds the ".0" Java's Float/Double.toString keeps on integers.
func javaFloat(s string) string {
	if !strings.ContainsAny(s, ".eEN") {
		return s + ".0"
	}
	return s
}

func decimalString(d schema.DecimalValue, scale int) string {
	x := new(big.Int).SetUint64(d.Lo)
	x.Or(x, new(big.Int).Lsh(big.NewInt(d.Hi), 64))
	if d.Hi < 0 {
		x = new(big.Int).Sub(new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(uint64(d.Hi)), 64), new(big.Int).SetUint64(d.Lo)), two128)
	}
	neg := x.Sign() < 0
	s := new(big.Int).Abs(x).String()
	if scale > 0 {
		for len(s) <= scale {
			s = "0" + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func escapePathName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
