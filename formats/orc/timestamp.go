package orc

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// orcEpoch is 2015-01-01T00:00:00Z in Unix seconds: ORC timestamps count
// seconds from it (spec section "Timestamp Columns").
const orcEpoch = 1420070400

// timestampColumn decodes timestamp and timestamp with local time zone
// columns: DATA holds signed seconds since 2015-01-01 00:00:00 (in the
// writer's time zone for timestamp, UTC for the instant type) and SECONDARY
// the nanoseconds, whose low 3 bits z mean "multiply the rest by 10^(z+1)"
// when z > 0.
type timestampColumn struct {
	base
	secs, nanos intReader
	loc         *time.Location
	sv, nv      []int64
}

func (c *timestampColumn) reset(s *stripe) error {
	e, err := c.directOnly(s)
	if err != nil {
		return err
	}
	c.resetPresent(s)
	d, _ := s.stream(c.n.col, sData)
	n, _ := s.stream(c.n.col, sSecondary)
	c.secs = newIntReader(d, true, e)
	c.nanos = newIntReader(n, false, e)
	c.loc = s.loc
	if c.n.t.kind == kTimestampInstant {
		c.loc = time.UTC
	}
	return nil
}

func (c *timestampColumn) next(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence(n, parent)
	if err != nil {
		return nil, err
	}
	if c.sv, err = c.secs.next(c.sv[:0], k); err != nil {
		return nil, c.wrapErr("DATA stream", err)
	}
	if c.nv, err = c.nanos.next(c.nv[:0], k); err != nil {
		return nil, c.wrapErr("SECONDARY stream", err)
	}
	// The k present values are written to the last k slots of the buffer,
	// then spread over the rows in place.
	buf := newBuffer(c.mem, 8*n)
	all := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	out := all[n-k:]
	fail := func(err error) (arrow.ArrayData, error) {
		buf.Release()
		return nil, err
	}
	utc := c.loc == time.UTC
	base := int64(orcEpoch)
	if !utc {
		base = localEpoch(c.loc)
	}
	for i, s := range c.sv {
		ns := decodeNanos(c.nv[i])
		if ns < 0 || ns > 999_999_999 {
			return fail(c.errf("%w: nanoseconds %d", ErrCorrupt, ns))
		}
		// The writer counted seconds from 2015-01-01 00:00:00 in its zone.
		// Writers before ORC-763 truncated negative seconds toward zero;
		// readers take one second off when the nanoseconds carry millis,
		// on the writer's instant, before any zone shift (as the Java and
		// C++ readers do).
		inst := s + base
		if inst < 0 && ns > 999_999 {
			inst--
		}
		sec := inst
		if !utc {
			// The wall clock is that instant seen in the writer's zone.
			_, off := time.Unix(inst, 0).In(c.loc).Zone()
			sec = inst + int64(off)
		}
		if c.n.tsNanos {
			if sec < minNanoSec || sec > maxNanoSec {
				return fail(c.errf("%w: timestamp %d s outside the range of int64 nanoseconds (1677-09-21 to 2262-04-11)", ErrUnsupported, sec))
			}
			out[i] = sec*1_000_000_000 + ns
		} else {
			out[i] = sec*1_000_000 + ns/1000
		}
	}
	expand(all, valid, k)
	return makeData(c.dt, n, n-k, []*memory.Buffer{c.bitmap(valid, k), buf}, nil), nil
}

// The seconds whose nanosecond timestamps fit an int64.
const (
	minNanoSec = -9223372036
	maxNanoSec = 9223372035
)

// decodeNanos undoes the trailing-zero encoding of the nanoseconds.
func decodeNanos(v int64) int64 {
	z := v & 7
	r := int64(uint64(v) >> 3)
	if z != 0 {
		for range z + 1 {
			r *= 10
		}
	}
	return r
}

// localEpoch returns 2015-01-01 00:00:00 in loc as Unix seconds.
func localEpoch(loc *time.Location) int64 {
	return time.Date(2015, 1, 1, 0, 0, 0, 0, loc).Unix()
}
