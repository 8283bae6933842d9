package iceberg

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lakecat/lakecat/internal/jsonutil"
	"github.com/lakecat/lakecat/schema"
)

// The top level of a table metadata document is read as a stream of tokens.
// The arrays that grow with a table's history ("snapshots", "snapshot-log",
// "metadata-log", "schemas") are decoded one element at a time, so that
// besides the decoded values only the raw bytes of one element are held;
// every other top-level value is small and kept raw until the keys are
// decoded in their fixed order (decodeKeys).

// streamedKeys are the top-level keys whose arrays are decoded element by
// element.
var streamedKeys = map[string]bool{"schemas": true, "snapshots": true, "snapshot-log": true, "metadata-log": true}

// Caps on what one metadata document may hold besides its size: a document
// under MaxMetadataBytes made of the smallest possible entries would
// otherwise decode to many times its size.
const (
	// maxSnapshots caps "snapshots": 2^19. A 64 MiB file of snapshots as
	// Spark, Flink or PyIceberg write them (a manifest list and a summary,
	// 200 bytes and more each) holds at most about 300,000.
	maxSnapshots = 1 << 19
	// maxStringMapEntries caps the entries of one JSON object of strings
	// (a snapshot summary, "properties"): 2^16.
	maxStringMapEntries = 1 << 16
)

// errOverCap is the error capReader returns once more than its cap has been
// read.
var errOverCap = errors.New("over the cap")

// capReader reads at most left bytes of r; reading more is errOverCap. It
// keeps the first error of r other than io.EOF, so that a failed read is
// told apart from malformed JSON.
type capReader struct {
	r    io.Reader
	left int64
	err  error
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.err = errOverCap
		return 0, c.err
	}
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// spaceSqueezer passes a JSON text through with every run of white space
// outside strings shortened to one byte. json.Decoder keeps the white space
// before a token in its buffer until the token arrives, so a document of
// 64 MiB of blanks would otherwise be buffered whole (and copied as the
// buffer grows).
type spaceSqueezer struct {
	r        io.Reader
	inString bool // inside a string
	escape   bool // after a backslash inside a string
	space    bool // the last byte passed on was white space outside a string
}

func (s *spaceSqueezer) Read(p []byte) (int, error) {
	for {
		n, err := s.r.Read(p)
		w := 0
		for _, c := range p[:n] {
			switch {
			case s.inString:
				switch {
				case s.escape:
					s.escape = false
				case c == '\\':
					s.escape = true
				case c == '"':
					s.inString = false
				}
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				if s.space {
					continue
				}
				s.space = true
				p[w] = c
				w++
				continue
			case c == '"':
				s.inString = true
			}
			s.space = false
			p[w] = c
			w++
		}
		if w > 0 || err != nil || n == 0 {
			return w, err
		}
	}
}

// DecodeMetadata is [ParseMetadata] reading the document from r,
// of which it reads at most [MaxMetadataBytes] (a longer document is an
// error matching [schema.ErrInvalidSchema]). Peak memory is the decoded metadata
// plus the largest single snapshot, schema or other top-level value: the
// document is never held whole. An error reading r is returned wrapped, not
// as a schema error.
func DecodeMetadata(r io.Reader) (*Metadata, error) {
	return decodeMetadata(r, MaxMetadataBytes)
}

func decodeMetadata(r io.Reader, limit int64) (*Metadata, error) {
	cr := &capReader{r: r, left: limit}
	m := &Metadata{present: map[string]bool{}, Extra: map[string]json.RawMessage{}}
	st := &metadataStream{m: m, dec: json.NewDecoder(&spaceSqueezer{r: cr}), obj: map[string]json.RawMessage{}, errs: map[string]error{}}
	if err := st.readTop(); err != nil {
		switch {
		case errors.Is(cr.err, errOverCap):
			return nil, &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("over the %d-byte cap for table metadata", limit)}
		case cr.err != nil:
			return nil, fmt.Errorf("%s: read: %w", metadataCodec, cr.err)
		}
		return nil, &schema.SchemaError{Codec: metadataCodec, Msg: "not a JSON object", Err: err}
	}
	if st.errs["snapshots"] == nil {
		m.Snapshots = st.snapshots.all()
	}
	st.snapshots = chunked[Snapshot]{}
	md, err := m.decodeKeys(st.obj, st.errs)
	m.interned = nil
	return md, err
}

// metadataStream is the state of one streamed decode.
type metadataStream struct {
	m    *Metadata
	dec  *json.Decoder
	obj  map[string]json.RawMessage // top-level keys not streamed, raw
	errs map[string]error           // per streamed key: the first error of its value, or nil
	raw  json.RawMessage            // the element being decoded (reused)

	snapshots chunked[Snapshot] // "snapshots" as decoded so far
}

// chunked is a list appended to in chunks of fixed size, so that growing it
// never copies what it holds; all makes one slice of it at the end.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkLen = 4096

func (c *chunked[T]) add(v T) {
	if k := len(c.chunks); k == 0 || len(c.chunks[k-1]) == chunkLen {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	k := len(c.chunks) - 1
	c.chunks[k] = append(c.chunks[k], v)
	c.n++
}

// all returns the values in order (nil for none), releasing the chunks.
func (c *chunked[T]) all() []T {
	if c.n == 0 {
		return nil
	}
	out := make([]T, 0, c.n)
	for i, ch := range c.chunks {
		out = append(out, ch...)
		c.chunks[i] = nil
	}
	c.chunks, c.n = nil, 0
	return out
}

// readTop reads the whole document. Its error is a JSON syntax error (or a
// read error); errors in the values of streamed keys go to errs.
func (st *metadataStream) readTop() error {
	tok, err := st.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("not a JSON object")
	}
	for st.dec.More() {
		tok, err := st.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // the decoder only yields strings as keys
		if streamedKeys[key] {
			delete(st.obj, key)
			st.resetStreamed(key)
			e, err := st.array(key)
			if err != nil {
				return err
			}
			st.errs[key] = e
			continue
		}
		delete(st.errs, key)
		var raw json.RawMessage
		if err := st.dec.Decode(&raw); err != nil {
			return err
		}
		st.obj[key] = raw
	}
	if _, err := st.dec.Token(); err != nil { // the closing '}'
		return err
	}
	if _, err := st.dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the top-level object")
		}
		return err
	}
	return nil
}

// array reads the value of a streamed key, decoding its elements in order.
// It returns the first error of the value (not an array, a bad element) and,
// apart, a syntax or read error. After a bad element the rest of the array
// is still read (a later syntax error wins), but not decoded.
func (st *metadataStream) array(key string) (valueErr, err error) {
	tok, err := st.dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case nil:
		return nil, nil // null: no elements
	case json.Delim:
		if tok == '{' {
			return notArray(key), st.skip()
		}
	default:
		return notArray(key), nil
	}
	for st.dec.More() {
		if err := st.dec.Decode(&st.raw); err != nil {
			return nil, err
		}
		if valueErr == nil {
			valueErr = st.decodeElement(key, st.raw)
		}
	}
	_, err = st.dec.Token() // the closing ']'
	return valueErr, err
}

// skip reads the rest of an object whose '{' has been read.
func (st *metadataStream) skip() error {
	for depth := 1; depth > 0; {
		tok, err := st.dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// decodeStrings decodes a JSON object of strings (null gives nil) of at most
// max entries, that a json.Decoder has read whole, passing each key and
// value through intern when it is not nil. No map of raw values is built.
func decodeStrings(raw json.RawMessage, max int, intern func([]byte) string) (map[string]string, error) {
	if jsonutil.IsNull(raw) {
		return nil, nil
	}
	out := map[string]string{}
	err := eachMember(raw, func(k, v []byte) error {
		var key, val string
		if intern != nil {
			key = intern(k)
		} else {
			key = string(k)
		}
		if len(v) < 2 || v[0] != '"' {
			return errors.New("not a JSON string")
		}
		if intern != nil && jsonutil.PlainString(v) {
			val = intern(v[1 : len(v)-1])
		} else {
			s, err := jsonutil.String(v)
			if err != nil {
				return err
			}
			val = s
		}
		out[key] = val
		if len(out) > max {
			return fmt.Errorf("more than %d entries", max)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func notArray(key string) error {
	return &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("bad %q", key), Err: errors.New("not a JSON array")}
}

// resetStreamed forgets what an earlier occurrence of a streamed key decoded
// (a key given twice takes its last value, as for the other keys).
func (st *metadataStream) resetStreamed(key string) {
	m := st.m
	switch key {
	case "schemas":
		for _, s := range m.Schemas {
			delete(m.schemaInfo, s)
		}
		m.Schemas = nil
	case "snapshots":
		st.snapshots = chunked[Snapshot]{}
	case "snapshot-log":
		m.SnapshotLog = nil
	case "metadata-log":
		m.MetadataLog = nil
	}
}

// decodeElement decodes one element of the array of a streamed key and
// appends it. The element's bytes are not kept.
func (st *metadataStream) decodeElement(key string, raw json.RawMessage) error {
	m := st.m
	bad := func(err error) error {
		return &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf("bad %q", key), Err: err}
	}
	switch key {
	case "schemas":
		s, err := m.parseSchemaObj(raw)
		if err != nil {
			return err
		}
		m.Schemas = append(m.Schemas, s)
	case "snapshots":
		if st.snapshots.n == maxSnapshots {
			return &schema.SchemaError{Codec: metadataCodec, Msg: fmt.Sprintf(`more than %d "snapshots"`, maxSnapshots)}
		}
		s, err := m.parseSnapshot(raw)
		if err != nil {
			return err
		}
		st.snapshots.add(s)
	case "snapshot-log":
		o, err := jsonutil.Object(raw)
		if err != nil {
			return bad(err)
		}
		ts, err1 := jsonutil.Int(o["timestamp-ms"], 64)
		id, err2 := m.snapshotID(o["snapshot-id"])
		if err1 != nil || err2 != nil {
			return bad(jsonutil.ErrNotInteger)
		}
		m.SnapshotLog = append(m.SnapshotLog, SnapshotLogEntry{TimestampMs: ts, SnapshotID: id})
	case "metadata-log":
		o, err := jsonutil.Object(raw)
		if err != nil {
			return bad(err)
		}
		ts, err1 := jsonutil.Int(o["timestamp-ms"], 64)
		f, err2 := jsonutil.String(o["metadata-file"])
		if err1 != nil || err2 != nil {
			return bad(errors.New("bad entry"))
		}
		m.MetadataLog = append(m.MetadataLog, MetadataLogEntry{TimestampMs: ts, MetadataFile: f})
	}
	return nil
}

// eachMember calls fn with each key and raw value of the JSON object raw in
// order, without building a map or copying: the key and value slices are
// valid only during the call. raw must be a JSON value the decoder has
// read whole (so known to be valid); anything else is an error, never a
// panic. A key with escapes (or not ASCII) is handed over decoded as
// encoding/json decodes it.
func eachMember(raw []byte, fn func(key, val []byte) error) error {
	bad := errors.New("not a JSON object")
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return bad
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
		if i >= len(raw) {
			return bad
		}
		if raw[i] == '}' {
			return nil
		}
		if raw[i] != '"' {
			return bad
		}
		end := stringEnd(raw, i)
		key := raw[i+1 : max(i+1, end-1)]
		if !jsonutil.PlainString(raw[i:end]) { // escapes or non-ASCII: as encoding/json decodes it
			var k string
			if err := json.Unmarshal(raw[i:end], &k); err != nil {
				return err
			}
			key = []byte(k)
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return bad
		}
		i = skipSpace(raw, i+1)
		if i >= len(raw) {
			return bad
		}
		vend := valueEnd(raw, i)
		if err := fn(key, raw[i:vend]); err != nil {
			return err
		}
		i = vend
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the closing quote of the JSON string
// that starts at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// valueEnd returns the index after the JSON value that starts at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}
