package parquet

import (
	"errors"
	"fmt"
	"io"
)

// Thrift compact protocol type codes (Thrift's "Compact Protocol"
// specification, "Struct encoding" and "List and set").
const (
	tcBoolTrue  = 1
	tcBoolFalse = 2
	tcByte      = 3
	tcI16       = 4
	tcI32       = 5
	tcI64       = 6
	tcDouble    = 7
	tcBinary    = 8
	tcList      = 9
	tcSet       = 10
	tcMap       = 11
	tcStruct    = 12
	tcUUID      = 13
)

// Decoded-size estimates charged by checkCompact. thriftStructCost is at
// least the Go size of the largest parquet-format struct parquet-go decodes
// into a slice (format.ColumnChunk, 560 bytes in parquet-go v0.32);
// thriftBinaryCost is a string or slice header; thriftScalarCost an int64.
const (
	thriftStructCost = 576
	thriftBinaryCost = 24
	thriftScalarCost = 8
)

// errThriftTooLarge marks a structure whose decoded size estimate is above
// the cap: the input may be well formed, so callers report it as
// [ErrUnsupported].
var errThriftTooLarge = errors.New("thrift structure too large")

// thriftCheck walks one thrift compact struct without decoding it, so that
// parquet-go's reflection decoder only ever sees input whose every length
// has been checked: parquet-go allocates a list's claimed size before
// reading its elements (reflect.MakeSlice of up to 2^31-1 elements, a fatal
// out-of-memory error that recover cannot catch) and skips unknown fields
// by recursion without a depth limit (a fatal stack overflow). The walk
// checks that every list, set, map and binary length fits the bytes that
// remain, that nesting stays within maxDepth, and that the estimated decoded
// size (thriftStructCost per struct element of a container, the length plus
// thriftBinaryCost per binary, thriftScalarCost per other element) stays
// within maxCost. It uses no recursion on the input's say-so beyond
// maxDepth and allocates nothing.
type thriftCheck struct {
	b        []byte
	pos      int
	maxDepth int
	maxCost  int64
	cost     int64
}

// checkCompact walks the thrift compact struct at the start of b and returns
// its length in bytes. A truncated struct gives an error matching
// io.ErrUnexpectedEOF; an estimate above maxCost gives errThriftTooLarge;
// anything else malformed gives a plain error.
func checkCompact(b []byte, maxDepth int, maxCost int64) (int, error) {
	c := thriftCheck{b: b, maxDepth: maxDepth, maxCost: maxCost}
	if err := c.structure(1); err != nil {
		return 0, fmt.Errorf("thrift at byte %d: %w", c.pos, err)
	}
	return c.pos, nil
}

func (c *thriftCheck) byte1() (byte, error) {
	if c.pos >= len(c.b) {
		return 0, io.ErrUnexpectedEOF
	}
	v := c.b[c.pos]
	c.pos++
	return v, nil
}

// uvarint reads an unsigned varint of at most 10 bytes.
func (c *thriftCheck) uvarint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 70; shift += 7 {
		b, err := c.byte1()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint longer than 10 bytes")
}

func (c *thriftCheck) skip(n uint64) error {
	if n > uint64(len(c.b)-c.pos) {
		return io.ErrUnexpectedEOF
	}
	c.pos += int(n)
	return nil
}

func (c *thriftCheck) charge(n int64) error {
	c.cost += n
	if c.cost > c.maxCost {
		return fmt.Errorf("%w: decoding would take more than %d bytes", errThriftTooLarge, c.maxCost)
	}
	return nil
}

// structure walks fields up to and including the stop byte.
func (c *thriftCheck) structure(depth int) error {
	if depth > c.maxDepth {
		return fmt.Errorf("structures nested deeper than %d", c.maxDepth)
	}
	for {
		h, err := c.byte1()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		if h>>4 == 0 { // long form: the field id follows as a zigzag varint
			if _, err := c.uvarint(); err != nil {
				return err
			}
		}
		t := h & 0x0f
		if t == tcBoolTrue || t == tcBoolFalse {
			continue // the value is the type
		}
		if err := c.value(t, depth); err != nil {
			return err
		}
	}
}

// value walks one value of type t (bools as a byte, as inside containers).
func (c *thriftCheck) value(t byte, depth int) error {
	switch t {
	case tcBoolTrue, tcBoolFalse, tcByte:
		return c.skip(1)
	case tcI16, tcI32, tcI64:
		_, err := c.uvarint()
		return err
	case tcDouble:
		return c.skip(8)
	case tcUUID:
		return c.skip(16)
	case tcBinary:
		n, err := c.uvarint()
		if err != nil {
			return err
		}
		if n > 1<<31-1 {
			return fmt.Errorf("binary length %d", n)
		}
		if err := c.skip(n); err != nil {
			return err
		}
		return c.charge(int64(n))
	case tcList, tcSet:
		h, err := c.byte1()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = c.uvarint(); err != nil {
				return err
			}
		}
		return c.elements(n, h&0x0f, 0, depth)
	case tcMap:
		n, err := c.uvarint()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		kv, err := c.byte1()
		if err != nil {
			return err
		}
		return c.elements(n, kv>>4, kv&0x0f, depth)
	case tcStruct:
		return c.structure(depth + 1)
	}
	return fmt.Errorf("unknown thrift type %d", t)
}

// elements walks n container elements of type t (and, for a map, values of
// type vt). Every element takes at least one byte, so a count above the
// bytes that remain is refused before any element is walked.
func (c *thriftCheck) elements(n uint64, t, vt byte, depth int) error {
	if n > 1<<31-1 {
		return fmt.Errorf("container of %d elements", n)
	}
	if n > uint64(len(c.b)-c.pos) {
		return fmt.Errorf("container of %d elements in %d remaining bytes: %w", n, len(c.b)-c.pos, io.ErrUnexpectedEOF)
	}
	if depth+1 > c.maxDepth {
		return fmt.Errorf("containers nested deeper than %d", c.maxDepth)
	}
	if err := c.charge(int64(n) * (elemCost(t) + elemCost(vt))); err != nil {
		return err
	}
	for i := uint64(0); i < n; i++ {
		if err := c.value(t, depth+1); err != nil {
			return err
		}
		if vt != 0 {
			if err := c.value(vt, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func elemCost(t byte) int64 {
	switch t {
	case 0:
		return 0
	case tcStruct:
		return thriftStructCost
	case tcBinary, tcList, tcSet, tcMap:
		return thriftBinaryCost
	}
	return thriftScalarCost
}
