package expr

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/schema"
)

// integerValue returns the value of the number literal text (as the
// parser accepts it: sign, digits, fraction, exponent) when it is an
// integer: n when it fits int64, else side 1 (above 2^63-1) or -1 (below
// -2^63). ok is false for a value with a fraction. The exponent may be of
// any size: a value is not materialised beyond 20 digits.
func integerValue(text string) (n int64, side int, ok bool) {
	neg := false
	if text != "" && (text[0] == '-' || text[0] == '+') {
		neg = text[0] == '-'
		text = text[1:]
	}
	mant, exp, _ := strings.Cut(strings.ToLower(text), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return 0, 0, true // zero, whatever its exponent
	}
	// The value is digits × 10^e, e = exponent - len(frac), once the
	// trailing zeros of digits are moved into e.
	trimmed := strings.TrimRight(digits, "0")
	shift := int64(len(digits) - len(trimmed) - len(frac))
	digits = trimmed
	e, err := strconv.ParseInt(exp, 10, 64)
	switch {
	case exp == "":
		e = 0
	case errors.Is(err, strconv.ErrRange) && exp[0] == '-':
		return 0, 0, false // 10^-huge: a fraction
	case err != nil: // 10^huge
		e = math.MaxInt32
	}
	e = max(min(e, math.MaxInt32), math.MinInt32) + shift
	if e < 0 {
		return 0, 0, false
	}
	sign := 1
	if neg {
		sign = -1
	}
	if int64(len(digits))+e > 20 {
		return 0, sign, true
	}
	s := digits + strings.Repeat("0", int(e))
	if neg {
		s = "-" + s
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, sign, true
	}
	return v, 0, true
}

// floatRange returns, for a float or double column, the side of the
// type's finite range the number literal text lies beyond: 1 when the
// nearest value of the type to it is +Infinity, -1 for -Infinity, else 0
// (the literal rounds to a finite value, an underflow to zero included).
func floatRange(t schema.PrimitiveType, text string) int {
	bits := 64
	if t.K != schema.KindDouble {
		bits = 32
	}
	f, err := strconv.ParseFloat(text, bits)
	if !errors.Is(err, strconv.ErrRange) || !math.IsInf(f, 0) {
		return 0
	}
	if f > 0 {
		return 1
	}
	return -1
}

// decimalRange returns, for a decimal(P, S) column, the side of the type's
// range the number literal text lies beyond: 1 when it is at least
// 10^(P-S), above the greatest value 10^(P-S) - 10^-S, -1 when it is at
// most -10^(P-S), else 0 (a literal inside, which may still hold more than
// S fraction digits). The exponent may be of any size.
func decimalRange(t schema.PrimitiveType, text string) int {
	sign := 1
	if text != "" && (text[0] == '-' || text[0] == '+') {
		if text[0] == '-' {
			sign = -1
		}
		text = text[1:]
	}
	mant, exp, _ := strings.Cut(strings.ToLower(text), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	// The value is 0.d… × 10^n with d its first significant digit; it is
	// at least 10^(P-S) when n > P-S.
	var n int64
	if w := strings.TrimLeft(whole, "0"); w != "" {
		n = int64(len(w))
	} else if f := strings.TrimLeft(frac, "0"); f != "" {
		n = -int64(len(frac) - len(f))
	} else {
		return 0 // zero
	}
	e, err := strconv.ParseInt(exp, 10, 64)
	switch {
	case exp == "":
		e = 0
	case errors.Is(err, strconv.ErrRange) && exp[0] == '-':
		return 0
	case err != nil:
		e = math.MaxInt32
	}
	n += max(min(e, math.MaxInt32), math.MinInt32)
	if n > int64(t.Precision-t.Scale) {
		return sign
	}
	return 0
}
