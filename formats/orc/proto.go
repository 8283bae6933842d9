package orc

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// The protobuf messages of the file tail and stripe footers, decoded with
// protowire from the field numbers in the specification's orc_proto.proto
// (spec sections "PostScript", "Footer", "Stripe Footer").

// pbReader walks the fields of one protobuf message.
type pbReader struct {
	b   []byte
	err error
}

// next returns the next field's number and wire type, or ok=false at the end
// or on error (check r.err).
func (r *pbReader) next() (num protowire.Number, typ protowire.Type, ok bool) {
	if r.err != nil || len(r.b) == 0 {
		return 0, 0, false
	}
	num, typ, n := protowire.ConsumeTag(r.b)
	if n < 0 {
		r.err = protowire.ParseError(n)
		return 0, 0, false
	}
	r.b = r.b[n:]
	return num, typ, true
}

func (r *pbReader) fail(n int) {
	if r.err == nil {
		r.err = protowire.ParseError(n)
	}
}

// uint reads a varint field value.
func (r *pbReader) uint(typ protowire.Type) uint64 {
	if typ != protowire.VarintType {
		r.err = fmt.Errorf("wire type %d where a varint was expected", typ)
		return 0
	}
	v, n := protowire.ConsumeVarint(r.b)
	if n < 0 {
		r.fail(n)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes reads a length-delimited field value (aliasing the input).
func (r *pbReader) bytes(typ protowire.Type) []byte {
	if typ != protowire.BytesType {
		r.err = fmt.Errorf("wire type %d where bytes were expected", typ)
		return nil
	}
	v, n := protowire.ConsumeBytes(r.b)
	if n < 0 {
		r.fail(n)
		return nil
	}
	r.b = r.b[n:]
	return v
}

// uints appends a repeated uint32 field, packed or not.
func (r *pbReader) uints(dst []uint32, num protowire.Number, typ protowire.Type) []uint32 {
	if typ == protowire.VarintType {
		return append(dst, uint32(r.uint(typ)))
	}
	p := r.bytes(typ)
	for len(p) > 0 && r.err == nil {
		v, n := protowire.ConsumeVarint(p)
		if n < 0 {
			r.fail(n)
			break
		}
		dst = append(dst, uint32(v))
		p = p[n:]
	}
	return dst
}

// repeatedBytes returns the values of the length-delimited field num of
// the rest of the message, one per occurrence (aliasing the input), and
// skips its other fields. ok is false when the field occurs more than max
// times; a malformed message sets r.err.
func (r *pbReader) repeatedBytes(num protowire.Number, max int) (vals [][]byte, ok bool) {
	for {
		n, typ, more := r.next()
		if !more {
			return vals, true
		}
		if n != num {
			r.skip(n, typ)
			continue
		}
		v := r.bytes(typ)
		if len(vals) >= max {
			return nil, false
		}
		vals = append(vals, v)
	}
}

// uint64s appends a repeated uint64 field, packed or not.
func (r *pbReader) uint64s(dst []uint64, typ protowire.Type) []uint64 {
	if typ == protowire.VarintType {
		return append(dst, r.uint(typ))
	}
	p := r.bytes(typ)
	for len(p) > 0 && r.err == nil {
		v, n := protowire.ConsumeVarint(p)
		if n < 0 {
			r.fail(n)
			break
		}
		dst = append(dst, v)
		p = p[n:]
	}
	return dst
}

func (r *pbReader) skip(num protowire.Number, typ protowire.Type) {
	n := protowire.ConsumeFieldValue(num, typ, r.b)
	if n < 0 {
		r.fail(n)
		return
	}
	r.b = r.b[n:]
}

// Compression kinds (PostScript.compression).
const (
	compNone   = 0
	compZlib   = 1
	compSnappy = 2
	compLZO    = 3
	compLZ4    = 4
	compZstd   = 5
)

var compNames = [...]string{"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD", "BROTLI"}

func compName(c uint64) string {
	if c < uint64(len(compNames)) {
		return compNames[c]
	}
	return fmt.Sprintf("codec(%d)", c)
}

type postScript struct {
	footerLength   uint64
	compression    uint64
	blockSize      uint64
	hasBlockSize   bool
	version        []uint32
	metadataLength uint64
	writerVersion  uint64
	magic          string
}

func parsePostScript(b []byte) (*postScript, error) {
	ps := &postScript{}
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			ps.footerLength = r.uint(typ)
		case 2:
			ps.compression = r.uint(typ)
		case 3:
			ps.blockSize = r.uint(typ)
			ps.hasBlockSize = true
		case 4:
			ps.version = r.uints(ps.version, num, typ)
		case 5:
			ps.metadataLength = r.uint(typ)
		case 6:
			ps.writerVersion = r.uint(typ)
		case 8000:
			ps.magic = string(r.bytes(typ))
		default:
			r.skip(num, typ)
		}
	}
	return ps, r.err
}

type stripeInfo struct {
	offset, indexLength, dataLength, footerLength, numberOfRows uint64
}

type keyValue struct{ key, value string }

// Type kinds (Type.kind).
const (
	kBoolean = iota
	kByte
	kShort
	kInt
	kLong
	kFloat
	kDouble
	kString
	kBinary
	kTimestamp
	kList
	kMap
	kStruct
	kUnion
	kDecimal
	kDate
	kVarchar
	kChar
	kTimestampInstant
)

var kindNames = [...]string{"boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
	"string", "binary", "timestamp", "array", "map", "struct", "uniontype", "decimal", "date",
	"varchar", "char", "timestamp with local time zone"}

func kindName(k uint64) string {
	if k < uint64(len(kindNames)) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

type orcType struct {
	kind         uint64
	subtypes     []uint32
	fieldNames   []string
	maxLength    uint64
	precision    uint64
	scale        uint64
	hasPrecision bool
	attrs        []keyValue
}

func (t *orcType) attr(key string) (string, bool) {
	for _, kv := range t.attrs {
		if kv.key == key {
			return kv.value, true
		}
	}
	return "", false
}

type footer struct {
	headerLength   uint64
	contentLength  uint64
	stripes        []stripeInfo
	types          []orcType
	metadata       []keyValue
	numberOfRows   uint64
	rowIndexStride uint64
	writer         uint64
	software       string
	encrypted      bool
}

func parseFooter(b []byte) (*footer, error) {
	f := &footer{}
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			f.headerLength = r.uint(typ)
		case 2:
			f.contentLength = r.uint(typ)
		case 3:
			if len(f.stripes) >= maxStripes {
				return nil, fmt.Errorf("%w: more than %d stripes", ErrTooLarge, maxStripes)
			}
			s, err := parseStripeInfo(r.bytes(typ))
			if err != nil {
				return nil, err
			}
			f.stripes = append(f.stripes, s)
		case 4:
			if len(f.types) >= maxTypes {
				return nil, fmt.Errorf("%w: more than %d types", ErrTooLarge, maxTypes)
			}
			t, err := parseType(r.bytes(typ))
			if err != nil {
				return nil, err
			}
			f.types = append(f.types, t)
		case 5:
			kv, err := parseKeyValue(r.bytes(typ))
			if err != nil {
				return nil, err
			}
			f.metadata = append(f.metadata, kv)
		case 6:
			f.numberOfRows = r.uint(typ)
		case 8:
			f.rowIndexStride = r.uint(typ)
		case 9:
			f.writer = r.uint(typ)
		case 10:
			f.encrypted = true
			r.skip(num, typ)
		case 12:
			f.software = string(r.bytes(typ))
		default:
			r.skip(num, typ)
		}
	}
	return f, r.err
}

func parseStripeInfo(b []byte) (stripeInfo, error) {
	var s stripeInfo
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			s.offset = r.uint(typ)
		case 2:
			s.indexLength = r.uint(typ)
		case 3:
			s.dataLength = r.uint(typ)
		case 4:
			s.footerLength = r.uint(typ)
		case 5:
			s.numberOfRows = r.uint(typ)
		default:
			r.skip(num, typ)
		}
	}
	return s, r.err
}

func parseKeyValue(b []byte) (keyValue, error) {
	var kv keyValue
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			kv.key = string(r.bytes(typ))
		case 2:
			kv.value = string(r.bytes(typ))
		default:
			r.skip(num, typ)
		}
	}
	return kv, r.err
}

func parseType(b []byte) (orcType, error) {
	var t orcType
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			t.kind = r.uint(typ)
		case 2:
			t.subtypes = r.uints(t.subtypes, num, typ)
		case 3:
			t.fieldNames = append(t.fieldNames, string(r.bytes(typ)))
		case 4:
			t.maxLength = r.uint(typ)
		case 5:
			t.precision = r.uint(typ)
			t.hasPrecision = true
		case 6:
			t.scale = r.uint(typ)
		case 7:
			kv, err := parseKeyValue(r.bytes(typ))
			if err != nil {
				return t, err
			}
			t.attrs = append(t.attrs, kv)
		default:
			r.skip(num, typ)
		}
	}
	return t, r.err
}

// parseMetadata counts the StripeStatistics messages of the Metadata section
// (their column statistics are not used by this package).
func parseMetadata(b []byte) (int, error) {
	n := 0
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		if num == 1 {
			r.bytes(typ)
			n++
		} else {
			r.skip(num, typ)
		}
	}
	return n, r.err
}

// Stream kinds (Stream.kind).
const (
	sPresent        = 0
	sData           = 1
	sLength         = 2
	sDictionaryData = 3
	sDictionaryCnt  = 4
	sSecondary      = 5
	sRowIndex       = 6
	sBloomFilter    = 7
	sBloomUTF8      = 8
)

var streamNames = [...]string{"PRESENT", "DATA", "LENGTH", "DICTIONARY_DATA", "DICTIONARY_COUNT",
	"SECONDARY", "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8"}

func streamName(k uint64) string {
	if k < uint64(len(streamNames)) {
		return streamNames[k]
	}
	return fmt.Sprintf("stream(%d)", k)
}

// Column encoding kinds (ColumnEncoding.kind).
const (
	encDirect       = 0
	encDictionary   = 1
	encDirectV2     = 2
	encDictionaryV2 = 3
)

type streamInfo struct {
	kind   uint64
	column uint64
	length uint64
}

type columnEncoding struct {
	kind     uint64
	dictSize uint64
}

type stripeFooter struct {
	streams   []streamInfo
	encodings []columnEncoding
	timezone  string
}

func parseStripeFooter(b []byte) (*stripeFooter, error) {
	sf := &stripeFooter{}
	r := pbReader{b: b}
	for {
		num, typ, ok := r.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			var s streamInfo
			sr := pbReader{b: r.bytes(typ)}
			for {
				n2, t2, ok := sr.next()
				if !ok {
					break
				}
				switch n2 {
				case 1:
					s.kind = sr.uint(t2)
				case 2:
					s.column = sr.uint(t2)
				case 3:
					s.length = sr.uint(t2)
				default:
					sr.skip(n2, t2)
				}
			}
			if sr.err != nil {
				return nil, sr.err
			}
			sf.streams = append(sf.streams, s)
		case 2:
			var e columnEncoding
			er := pbReader{b: r.bytes(typ)}
			for {
				n2, t2, ok := er.next()
				if !ok {
					break
				}
				switch n2 {
				case 1:
					e.kind = er.uint(t2)
				case 2:
					e.dictSize = er.uint(t2)
				default:
					er.skip(n2, t2)
				}
			}
			if er.err != nil {
				return nil, er.err
			}
			sf.encodings = append(sf.encodings, e)
		case 3:
			sf.timezone = string(r.bytes(typ))
		default:
			r.skip(num, typ)
		}
	}
	return sf, r.err
}
