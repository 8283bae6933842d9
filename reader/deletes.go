package reader

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/puffin"
	"github.com/lakecat/lakecat/internal/arrowtake"
	"github.com/lakecat/lakecat/internal/recycle"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// Row-level deletes (Iceberg table spec, "Row-level Deletes"): the delete
// files table/iceberg planned for a data file are read here and applied to
// its batches. Position deletes and deletion vectors become one bitmap of
// the file's deleted positions; equality deletes become one hash set of
// keys per set of equality ids.

// The field ids of a position delete file's columns (Iceberg spec,
// "Position Delete Files").
const (
	FieldIDDeleteFilePath = 2147483546
	FieldIDDeleteFilePos  = 2147483545
)

var (
	// ErrCorruptDeleteFile is matched by the error for a delete file that
	// cannot be applied: a position delete file without file_path or pos, a
	// position at or beyond the data file's row count, a deletion vector
	// that does not decode (length, magic, CRC), an equality delete file
	// without one of its equality columns. The error is a [*DeleteFileError].
	ErrCorruptDeleteFile = lakecat.NewSentinel(lakecat.ErrCorrupt, "reader: corrupt delete file")
	// ErrEqualityField is matched by the error for an equality delete whose
	// equality field id the table schema no longer has (a dropped column)
	// or whose type cannot be a key (nested types).
	ErrEqualityField = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: equality delete field cannot be matched")
	// ErrKeySetBudget is matched by the error for equality delete key sets
	// that do not fit in the scan's memory budget: a [*KeySetBudgetError].
	ErrKeySetBudget = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: equality delete keys exceed the memory budget")
)

// The estimated bytes of one key of an equality key set: the key itself
// (8 bytes for an int or long key; a 16-byte string header and the
// encoded bytes otherwise) plus keySlotBytes for the Go map's slot: its
// control byte and the free slots its 7/8 load factor and growth by
// doubling leave (up to as many again just after a growth). An int or long
// set also has its probe filter ([eqSet.seal]): 16 to 32 bits a key (64
// bits at least, so a set of one key is 4 bytes under).
const (
	keySlotBytes   = 16
	intKeyBytes    = 8 + keySlotBytes + 4
	stringKeyBytes = 16 + keySlotBytes // plus the key's length
)

// KeySetBudgetError is the error for the equality key sets of a scan that
// exceed its memory budget (ScanOptions.MemoryBytes, lakecat's --memory):
// the sets are held for the whole scan, so they must fit in it alone. Sizes
// are estimates: keys × (key bytes + map overhead), see [ErrKeySetBudget].
type KeySetBudgetError struct {
	// DeleteFiles are the equality delete files whose sets did not fit.
	DeleteFiles []string
	// Bytes is the estimated size of their sets (when the build stopped,
	// so at least this); HeldBytes the key sets of the scan already held;
	// LimitBytes the budget.
	Bytes, HeldBytes, LimitBytes int64
}

func (e *KeySetBudgetError) Error() string {
	return fmt.Sprintf("equality delete keys of %s need at least %d bytes, with %d bytes of other key sets held: over the scan's memory budget of %d bytes (raise it)",
		strings.Join(e.DeleteFiles, ", "), e.Bytes, e.HeldBytes, e.LimitBytes)
}

// Unwrap returns [ErrKeySetBudget].
func (e *KeySetBudgetError) Unwrap() error { return ErrKeySetBudget }

// DeleteFileError is an error reading or applying one delete file of a data
// file. It matches [ErrCorruptDeleteFile] (or [ErrEqualityField]) and the
// cause under errors.Is.
type DeleteFileError struct {
	// DeleteFile is the delete file's path; DataFile the data file's.
	DeleteFile, DataFile string
	// Kind is "position deletes", "deletion vector" or "equality deletes".
	Kind string
	// Class is ErrCorruptDeleteFile or ErrEqualityField, or nil for a
	// delete file that is missing or whose read was canceled.
	Class error
	Err   error
}

func (e *DeleteFileError) Error() string {
	return fmt.Sprintf("%s of %s: %s: %v", e.Kind, e.DataFile, e.DeleteFile, e.Err)
}

// Unwrap returns the class (when set) and the cause.
func (e *DeleteFileError) Unwrap() []error {
	if e.Class == nil {
		return []error{e.Err}
	}
	return []error{e.Class, e.Err}
}

// taskDeletes is what a task's deletes need: carried in [Options] to the
// worker that opens the data file.
type taskDeletes struct {
	fsys        storage.FS
	files       []table.DeleteFile
	keys        *schema.Schema // task.DeleteSchema
	dataPaths   []string       // the data file's stored path, then its resolved one
	paths       *table.PathResolution
	nameMapping schema.NameMapping
	rules       project.Rules
	limits      Limits
	cache       *deleteCache // shared by the tasks of one scan, or nil
}

// hasEquality reports whether an equality delete is among the files.
func (d *taskDeletes) hasEquality() bool {
	for _, f := range d.files {
		if f.Content == table.EqualityDeletes {
			return true
		}
	}
	return false
}

// eqSet is the keys of the equality deletes with one list of equality ids.
// A single int or long key is kept in ints (and a null key as nullKey)
// rather than as encoded bytes in keys.
type eqSet struct {
	ids      []int
	keys     map[string]struct{}
	ints     map[int64]struct{}
	nullKey  bool
	keyBytes int64 // the bytes of the keys in keys
	// probe has the bit hashInt(v)>>shift set for every v of ints: a
	// probe whose bit is clear is not in the set, without a map lookup
	// (most rows of a data file are not deleted).
	probe []uint64
	shift uint
}

// seal builds the probe filter of ints, once the set is complete: at least
// 16 bits a key, so about one probe in 16 of a key not in the set passes.
func (s *eqSet) seal() {
	if len(s.ints) == 0 {
		return
	}
	logBits := uint(bits.Len(uint(16*len(s.ints) - 1)))
	logBits = max(logBits, 6)
	s.probe = make([]uint64, 1<<(logBits-6))
	s.shift = 64 - logBits
	for v := range s.ints {
		h := hashInt(v) >> s.shift
		s.probe[h>>6] |= 1 << (h & 63)
	}
}

// hashInt mixes v for the probe filter (Fibonacci hashing: the high bits).
func hashInt(v int64) uint64 { return uint64(v) * 0x9e3779b97f4a7c15 }

// bytes is the estimated size of the set in memory.
func (s *eqSet) bytes() int64 {
	return int64(len(s.ints))*intKeyBytes + int64(len(s.keys))*stringKeyBytes + s.keyBytes
}

// empty reports whether the set holds no key.
func (s *eqSet) empty() bool { return len(s.keys) == 0 && len(s.ints) == 0 && !s.nullKey }

// addInts adds the keys of a single int or long column; ok is false for
// another type.
func (s *eqSet) addInts(a arrow.Array) bool {
	switch x := a.(type) {
	case *array.Int64:
		if s.ints == nil {
			s.ints = map[int64]struct{}{}
		}
		for i := 0; i < x.Len(); i++ {
			if x.IsNull(i) {
				s.nullKey = true
			} else {
				s.ints[x.Value(i)] = struct{}{}
			}
		}
	case *array.Int32:
		if s.ints == nil {
			s.ints = map[int64]struct{}{}
		}
		for i := 0; i < x.Len(); i++ {
			if x.IsNull(i) {
				s.nullKey = true
			} else {
				s.ints[int64(x.Value(i))] = struct{}{}
			}
		}
	default:
		return false
	}
	return true
}

// probeInts marks in drop the rows of a single int or long key column that
// the set holds, and returns how many it marked; ok is false for another
// type.
func (s *eqSet) probeInts(a arrow.Array, drop []bool) (marked int, ok bool) {
	hit := func(i int, v int64) {
		if drop[i] {
			return
		}
		if s.probe != nil {
			if h := hashInt(v) >> s.shift; s.probe[h>>6]&(1<<(h&63)) == 0 {
				return
			}
		}
		if _, in := s.ints[v]; in {
			drop[i] = true
			marked++
		}
	}
	nulls := a.NullN() > 0
	switch x := a.(type) {
	case *array.Int64:
		vals := x.Int64Values()
		for i, v := range vals {
			if nulls && x.IsNull(i) {
				if s.nullKey && !drop[i] {
					drop[i] = true
					marked++
				}
				continue
			}
			hit(i, v)
		}
	case *array.Int32:
		vals := x.Int32Values()
		for i, v := range vals {
			if nulls && x.IsNull(i) {
				if s.nullKey && !drop[i] {
					drop[i] = true
					marked++
				}
				continue
			}
			hit(i, int64(v))
		}
	default:
		return 0, false
	}
	return marked, true
}

// fileDeletes is what is applied to one data file's batches.
type fileDeletes struct {
	positions *roaring64.Bitmap // nil: none
	eq        []*eqSet
	eqCols    [][]int // per eq set, the record column of each id
	keep      int     // columns of the read schema (extra key columns follow)
	deleted   int     // column of _deleted, or -1: drop deleted rows
	ignore    bool    // count nothing: --ignore-deletes with _deleted
	inDecoder bool    // the decoder leaves the positions out (see decoderSkip)
	drop      []bool
	runs      [][2]int
	keepBits  []byte
	keyBuf    []byte
	dropPos   []int // the batch's rows position deletes drop, in order
	cursor    posCursor
	keep1     []uint8
	cols      []arrow.Array
	pool      *recycle.Pool // the buffers of the survivors, or nil: mem
	ownPool   bool          // pool is the file's own, not the scan's
}

// close gives the kept buffers of the file's own pool back (fd may be nil).
func (fd *fileDeletes) close() {
	if fd != nil && fd.pool != nil && fd.ownPool {
		fd.pool.Close()
	}
}

// posDeleteSchema reads a position delete file: file_path and pos are
// required (Iceberg spec, "Position Delete Files"); row is not read.
var posDeleteSchema = schema.New(-1,
	&schema.Field{ID: FieldIDDeleteFilePath, Name: "file_path", Type: schema.String, Required: true},
	&schema.Field{ID: FieldIDDeleteFilePos, Name: "pos", Type: schema.Long, Required: true},
)

// posOnlySchema reads the positions alone, of a position delete file that
// names its one data file.
var posOnlySchema = schema.New(-1, &schema.Field{ID: FieldIDDeleteFilePos, Name: "pos", Type: schema.Long, Required: true})

// posDeleteMapping gives a position delete file written without ids its
// columns' reserved ids.
var posDeleteMapping = schema.NameMapping{
	{FieldID: ptrInt(FieldIDDeleteFilePath), Names: []string{"file_path"}},
	{FieldID: ptrInt(FieldIDDeleteFilePos), Names: []string{"pos"}},
}

func ptrInt(v int) *int { return &v }

// load reads the position deletes and deletion vectors of the data file
// (numRows rows) and the equality delete sets.
func (d *taskDeletes) load(ctx context.Context, numRows int64, mem memory.Allocator) (*fileDeletes, error) {
	fd := &fileDeletes{deleted: -1}
	var eqFiles []table.DeleteFile
	for _, f := range d.files {
		switch f.Content {
		case table.PositionDeletes, table.DeletionVector, table.PaimonDeletionVector:
			bm, err := d.readPositions(ctx, f, numRows, mem)
			if err != nil {
				return nil, d.wrap(f, ErrCorruptDeleteFile, err)
			}
			if !bm.IsEmpty() && bm.Maximum() >= uint64(numRows) {
				return nil, d.wrap(f, ErrCorruptDeleteFile, fmt.Errorf("position %d is beyond the data file's %d rows", bm.Maximum(), numRows))
			}
			if fd.positions == nil {
				fd.positions = bm
			} else {
				fd.positions.Or(bm)
			}
		case table.EqualityDeletes:
			eqFiles = append(eqFiles, f)
		default:
			return nil, d.wrap(f, ErrCorruptDeleteFile, fmt.Errorf("unknown delete content %q", f.Content))
		}
	}
	if len(eqFiles) > 0 {
		sets, err := d.equalitySets(ctx, eqFiles, mem)
		if err != nil {
			return nil, err
		}
		fd.eq = sets
	}
	return fd, nil
}

// wrap returns err as the [*DeleteFileError] of f, of class class, except
// a missing file or a canceled read, which keep their own class.
func (d *taskDeletes) wrap(f table.DeleteFile, class, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		class = nil
	}
	kind := "position deletes"
	switch f.Content {
	case table.DeletionVector, table.PaimonDeletionVector:
		kind = "deletion vector"
	case table.EqualityDeletes:
		kind = "equality deletes"
	}
	var de *DeleteFileError
	if errors.As(err, &de) {
		return err
	}
	return &DeleteFileError{DeleteFile: f.Path, DataFile: d.dataPaths[len(d.dataPaths)-1], Kind: kind, Class: class, Err: err}
}

// readPositions returns the positions f deletes in the data file, of
// numRows rows (positions beyond them are returned too: the caller rejects
// them).
func (d *taskDeletes) readPositions(ctx context.Context, f table.DeleteFile, numRows int64, mem memory.Allocator) (*roaring64.Bitmap, error) {
	if f.Content == table.PaimonDeletionVector {
		bm, err := readPaimonDeletionVector(ctx, d.fsys, f)
		if err == nil {
			err = checkRecordCount(f, int64(bm.GetCardinality()), "positions")
		}
		return bm, err
	}
	if f.Content == table.DeletionVector {
		if f.ReferencedDataFile == "" {
			// Iceberg spec, "Deletion Vectors": a DV names its data file.
			return nil, errors.New("a deletion vector without referenced_data_file")
		}
		file, err := d.fsys.Open(ctx, f.Path)
		if err != nil {
			return nil, err
		}
		defer file.Close()
		bm, err := puffin.ReadDeletionVector(file, file.Size(), f.ContentOffset, f.ContentSizeBytes)
		if err == nil {
			err = checkRecordCount(f, int64(bm.GetCardinality()), "positions")
		}
		return bm, err
	}
	if d.cache != nil {
		if bm, ok, err := d.cache.sharedPositions(ctx, d, f, mem); ok {
			return bm, err
		}
	}
	// A file with referenced_data_file holds deletes of that file only
	// (Iceberg spec, "Manifests": referenced_data_file), which planning
	// matched to this one: its file_path column is not read.
	read := posDeleteSchema
	if f.ReferencedDataFile != "" {
		read = posOnlySchema
	}
	rr, err := d.openDeleteFile(ctx, f, read, posDeleteMapping, nil, mem)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	pb := newPosBuilder(numRows, f.RecordCount)
	var rows int64
	match := d.dataFileMatcher()
	for rr.Next() {
		rec := rr.RecordBatch()
		rows += rec.NumRows()
		var paths *array.String
		pos, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Int64)
		if rec.NumCols() == 2 {
			paths, _ = rec.Column(0).(*array.String)
		}
		if !ok || (rec.NumCols() == 2 && paths == nil) {
			return nil, fmt.Errorf("file_path or pos of an unexpected type")
		}
		for i, p := range pos.Int64Values() {
			if paths != nil && !match(paths.Value(i)) {
				continue
			}
			if p < 0 {
				return nil, fmt.Errorf("row %d: negative position %d", i, p)
			}
			pb.add(uint64(p))
		}
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	if err := checkRecordCount(f, rows, "rows"); err != nil {
		return nil, err
	}
	return pb.bitmap(), nil
}

// checkRecordCount fails when a delete file's rows as read (a deletion
// vector's cardinality) differ from the record count its manifest entry
// states (Iceberg spec, "Manifests": record_count; Paimon's deletion
// vector cardinality): a damaged file that decodes short would otherwise
// bring deleted rows back. A negative count is unknown and not checked.
// The caller wraps the error in [ErrCorruptDeleteFile].
func checkRecordCount(f table.DeleteFile, read int64, what string) error {
	if f.RecordCount < 0 || read == f.RecordCount {
		return nil
	}
	return fmt.Errorf("read %d %s, the manifest entry states a record count of %d", read, what, f.RecordCount)
}

// dataFileMatcher returns the test of whether a position delete's
// file_path names the data file: its stored path as written, or a path
// whose canonical forms ([pathKeys], under task.Paths, the rules the data
// file's path was resolved with) meet the data file's. Hive and Impala
// write hdfs://host:port/… in delete files where the manifests store /….
// Delete files are sorted by file_path, so the last answer is kept.
func (d *taskDeletes) dataFileMatcher() func(string) bool {
	res := d.resolverOf()
	data := d.dataKeys(res)
	schemeless := d.schemeless()
	last, lastOK := "", false
	return func(p string) bool {
		if p == d.dataPaths[0] {
			return true
		}
		if p == last && last != "" {
			return lastOK
		}
		ok := false
		for _, k := range pathKeys(res, p, schemeless) {
			if containsString(data, k) {
				ok = true
				break
			}
		}
		last, lastOK = strings.Clone(p), ok
		return ok
	}
}

// openDeleteFile opens a delete file for reading in read. Every id of need
// must be a column of the file (a missing optional read field would
// otherwise read as nulls).
func (d *taskDeletes) openDeleteFile(ctx context.Context, f table.DeleteFile, read *schema.Schema, mapping schema.NameMapping, need []int, mem memory.Allocator) (*fileReader, error) {
	file, err := d.fsys.Open(ctx, f.Path)
	if err != nil {
		return nil, err
	}
	opts := Options{Name: f.Path, ReadSchema: read, NameMapping: mapping, Rules: d.rules, Allocator: mem, Limits: d.limits, format: f.Format}
	dec, _, err := openDecoder(file, file.Size(), opts)
	if err != nil {
		file.Close()
		return nil, err
	}
	if len(need) > 0 {
		resolved, err := ResolveFileSchema(dec.Schema(), nil, mapping)
		if err != nil {
			file.Close()
			return nil, err
		}
		for _, id := range need {
			if resolved.FindByID(id) == nil {
				file.Close()
				return nil, fmt.Errorf("no column with field id %d (equality field %s)", id, read.FindByID(id).Name)
			}
		}
	}
	rr, err := newFileReader(ctx, dec, opts)
	if err != nil {
		file.Close()
		return nil, err
	}
	rr.closer = file
	return rr, nil
}

// equalitySets returns one key set per list of equality ids among files,
// through the scan's cache when there is one.
func (d *taskDeletes) equalitySets(ctx context.Context, files []table.DeleteFile, mem memory.Allocator) ([]*eqSet, error) {
	if d.cache == nil {
		return d.buildEqualitySets(ctx, files, mem)
	}
	var key strings.Builder
	for _, f := range files {
		key.WriteString(f.Path)
		key.WriteByte(0)
	}
	return d.cache.get(key.String(), func() ([]*eqSet, error) { return d.buildEqualitySets(ctx, files, mem) })
}

func (d *taskDeletes) buildEqualitySets(ctx context.Context, files []table.DeleteFile, mem memory.Allocator) ([]*eqSet, error) {
	byIDs := map[string]*eqSet{}
	var out []*eqSet
	// fits checks the sets built so far against the scan's budget.
	fits := func(pin bool) error {
		if d.cache == nil || d.cache.budget == nil {
			return nil
		}
		var n int64
		for _, set := range out {
			n += set.bytes()
		}
		check := d.cache.budget.fits
		if pin {
			check = d.cache.budget.pin
		}
		if ok, held, limit := check(n); !ok {
			e := &KeySetBudgetError{Bytes: n, HeldBytes: held, LimitBytes: limit}
			for _, f := range files {
				e.DeleteFiles = append(e.DeleteFiles, f.Path)
			}
			return e
		}
		return nil
	}
	for _, f := range files {
		if len(f.EqualityIDs) == 0 {
			return nil, d.wrap(f, ErrCorruptDeleteFile, errors.New("an equality delete file without equality ids"))
		}
		ids := slices.Clone(f.EqualityIDs)
		slices.Sort(ids)
		ids = slices.Compact(ids)
		var k strings.Builder
		for _, id := range ids {
			k.WriteString(strconv.Itoa(id))
			k.WriteByte(',')
		}
		set := byIDs[k.String()]
		if set == nil {
			set = &eqSet{ids: ids, keys: map[string]struct{}{}}
			byIDs[k.String()] = set
			out = append(out, set)
		}
		read := &schema.Schema{ID: -1}
		for _, id := range ids {
			var kf *schema.Field
			if d.keys != nil {
				kf = d.keys.FindByID(id)
			}
			if kf == nil {
				return nil, d.wrap(f, ErrEqualityField, fmt.Errorf("equality field id %d is not a top-level column of the table schema (dropped?)", id))
			}
			if _, ok := kf.Type.(schema.PrimitiveType); !ok {
				return nil, d.wrap(f, ErrEqualityField, fmt.Errorf("equality field id %d (%s) is of type %s, not a primitive", id, kf.Name, kf.Type))
			}
			c := *kf
			c.Required = false
			c.InitialDefault = nil
			read.Fields = append(read.Fields, &c)
		}
		if err := d.addKeys(ctx, f, read, set, mem, func() error { return fits(false) }); err != nil {
			var be *KeySetBudgetError
			if errors.As(err, &be) {
				return nil, err
			}
			return nil, d.wrap(f, ErrCorruptDeleteFile, err)
		}
	}
	for _, set := range out {
		set.seal()
	}
	if err := fits(true); err != nil {
		return nil, err
	}
	return out, nil
}

// addKeys adds the rows of the equality delete file f, read in read, to
// set, calling fits after each batch (it fails when the sets are over the
// scan's budget).
func (d *taskDeletes) addKeys(ctx context.Context, f table.DeleteFile, read *schema.Schema, set *eqSet, mem memory.Allocator, fits func() error) error {
	rr, err := d.openDeleteFile(ctx, f, read, d.nameMapping, set.ids, mem)
	if err != nil {
		return err
	}
	defer rr.Release()
	cols := make([]int, len(set.ids))
	for i := range cols {
		cols[i] = i
	}
	var buf []byte
	var rows int64
	for rr.Next() {
		rec := rr.RecordBatch()
		rows += rec.NumRows()
		if len(cols) == 1 && len(set.keys) == 0 && set.addInts(rec.Column(0)) {
			if err := fits(); err != nil {
				return err
			}
			continue
		}
		if set.ints != nil || set.nullKey {
			return fmt.Errorf("equality field %d read as two types", set.ids[0])
		}
		enc, err := keyEncoders(rec, cols)
		if err != nil {
			return err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			buf = buf[:0]
			for _, e := range enc {
				buf = e(buf, i)
			}
			if _, ok := set.keys[string(buf)]; !ok {
				set.keys[string(buf)] = struct{}{}
				set.keyBytes += int64(len(buf))
			}
		}
		if err := fits(); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		return err
	}
	return checkRecordCount(f, rows, "rows")
}

// deleteCache holds the equality key sets of one scan, built once per set
// of equality delete files and shared by every data file they apply to,
// and the positions of the position delete files that apply to several of
// its tasks, read once.
type deleteCache struct {
	budget *budget       // the scan's, which the sets are pinned in
	pool   *recycle.Pool // the survivors' buffers of the scan's files
	mu     sync.Mutex
	m      map[string]*cacheEntry

	// The shared position delete files (deletes_cache.go): how many tasks
	// each applies to, the files read, and the bytes they hold.
	posMu   sync.Mutex
	posRefs map[string]int
	pos     map[string]*posEntry
	posHeld int64
}

type cacheEntry struct {
	once sync.Once
	sets []*eqSet
	err  error
}

func (c *deleteCache) get(key string, build func() ([]*eqSet, error)) ([]*eqSet, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*cacheEntry{}
	}
	e := c.m[key]
	if e == nil {
		e = &cacheEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.sets, e.err = build() })
	return e.sets, e.err
}

// keyEncoder appends the key bytes of row i of one column: a null byte, or
// a one byte then the value in a fixed form (NaN of either width in one
// form, so NaN equals NaN; strings and binaries length-prefixed).
type keyEncoder func(dst []byte, i int) []byte

// keyEncoders returns the encoders of the columns cols of rec.
func keyEncoders(rec arrow.RecordBatch, cols []int) ([]keyEncoder, error) {
	out := make([]keyEncoder, len(cols))
	for k, c := range cols {
		e, err := keyEncoderOf(rec.Column(c))
		if err != nil {
			return nil, fmt.Errorf("equality field %s: %w", rec.Schema().Field(c).Name, err)
		}
		out[k] = e
	}
	return out, nil
}

func keyEncoderOf(a arrow.Array) (keyEncoder, error) {
	if ext, ok := a.(array.ExtensionArray); ok {
		a = ext.Storage()
	}
	null := func(dst []byte, i int) ([]byte, bool) {
		if a.IsNull(i) {
			return append(dst, 0), true
		}
		return append(dst, 1), false
	}
	switch x := a.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) []byte {
			dst, isNull := null(dst, i)
			if isNull {
				return dst
			}
			if x.Value(i) {
				return append(dst, 1)
			}
			return append(dst, 0)
		}, nil
	case *array.Int32:
		return fixedKey(null, func(i int) uint64 { return uint64(uint32(x.Value(i))) }, 4), nil
	case *array.Int64:
		return fixedKey(null, func(i int) uint64 { return uint64(x.Value(i)) }, 8), nil
	case *array.Date32:
		return fixedKey(null, func(i int) uint64 { return uint64(uint32(x.Value(i))) }, 4), nil
	case *array.Time64:
		return fixedKey(null, func(i int) uint64 { return uint64(x.Value(i)) }, 8), nil
	case *array.Timestamp:
		return fixedKey(null, func(i int) uint64 { return uint64(x.Value(i)) }, 8), nil
	case *array.Float32:
		return fixedKey(null, func(i int) uint64 {
			v := x.Value(i)
			if v != v {
				return 0x7fc00000
			}
			return uint64(math.Float32bits(v))
		}, 4), nil
	case *array.Float64:
		return fixedKey(null, func(i int) uint64 {
			v := x.Value(i)
			if v != v {
				return 0x7ff8000000000001
			}
			return math.Float64bits(v)
		}, 8), nil
	case *array.Decimal128:
		return func(dst []byte, i int) []byte {
			dst, isNull := null(dst, i)
			if isNull {
				return dst
			}
			v := x.Value(i)
			dst = appendU64(dst, v.LowBits(), 8)
			return appendU64(dst, uint64(v.HighBits()), 8)
		}, nil
	case *array.String:
		return bytesKey(null, func(i int) []byte { return []byte(x.Value(i)) }), nil
	case *array.LargeString:
		return bytesKey(null, func(i int) []byte { return []byte(x.Value(i)) }), nil
	case *array.Binary:
		return bytesKey(null, x.Value), nil
	case *array.LargeBinary:
		return bytesKey(null, x.Value), nil
	case *array.FixedSizeBinary:
		return bytesKey(null, x.Value), nil
	}
	return nil, fmt.Errorf("%w: Arrow type %s cannot be an equality key", ErrEqualityField, a.DataType())
}

func fixedKey(null func([]byte, int) ([]byte, bool), v func(int) uint64, width int) keyEncoder {
	return func(dst []byte, i int) []byte {
		dst, isNull := null(dst, i)
		if isNull {
			return dst
		}
		return appendU64(dst, v(i), width)
	}
}

func bytesKey(null func([]byte, int) ([]byte, bool), v func(int) []byte) keyEncoder {
	return func(dst []byte, i int) []byte {
		dst, isNull := null(dst, i)
		if isNull {
			return dst
		}
		b := v(i)
		dst = appendU64(dst, uint64(len(b)), 4)
		return append(dst, b...)
	}
}

func appendU64(dst []byte, v uint64, width int) []byte {
	for k := 0; k < width; k++ {
		dst = append(dst, byte(v>>(8*k)))
	}
	return dst
}

// keyColumns records, for each equality set, the column of rec (laid out as
// read) that holds each of its ids.
func (fd *fileDeletes) keyColumns(read *schema.Schema) error {
	if len(fd.eq) > 0 && read == nil {
		return fmt.Errorf("%w: equality deletes need a read schema", ErrEqualityField)
	}
	fd.eqCols = make([][]int, len(fd.eq))
	for k, set := range fd.eq {
		cols := make([]int, len(set.ids))
		for j, id := range set.ids {
			cols[j] = -1
			for i, f := range read.Fields {
				if f.ID == id {
					cols[j] = i
				}
			}
			if cols[j] < 0 {
				return fmt.Errorf("%w: equality field id %d is not in the read schema", ErrEqualityField, id)
			}
		}
		fd.eqCols[k] = cols
	}
	return nil
}

// apply applies the deletes to rec, the batch of the file's rows from first
// on, laid out as the read schema and then the extra key columns: it
// returns the batch in out (the read schema) without the deleted rows, or
// with them flagged in _deleted, and nil when no row is left. rec is
// released.
func (fd *fileDeletes) apply(ctx context.Context, rec arrow.RecordBatch, first int64, out *arrow.Schema, mem memory.Allocator) (arrow.RecordBatch, error) {
	n := int(rec.NumRows())
	pool := mem
	if fd.pool != nil {
		pool = fd.pool
	}
	fd.dropPos = fd.dropPos[:0]
	if fd.positions != nil && !fd.inDecoder {
		fd.dropPos = fd.cursor.collect(fd.positions, fd.dropPos, uint64(first), uint64(first)+uint64(n))
	}
	if fd.positionsOnly() {
		return fd.applyPositions(ctx, rec, out, pool, mem)
	}
	if cap(fd.drop) < n {
		fd.drop = make([]bool, n)
	}
	drop := fd.drop[:n]
	clear(drop)
	for _, p := range fd.dropPos {
		drop[p] = true
	}
	dropped := len(fd.dropPos)
	posDropped := dropped
	for k, set := range fd.eq {
		if set.empty() {
			continue
		}
		if set.ints != nil || set.nullKey {
			marked, ok := set.probeInts(rec.Column(fd.eqCols[k][0]), drop)
			if !ok {
				rec.Release()
				return nil, fmt.Errorf("%w: equality field %d is not an int or long column", ErrEqualityField, set.ids[0])
			}
			dropped += marked
			continue
		}
		enc, err := keyEncoders(rec, fd.eqCols[k])
		if err != nil {
			rec.Release()
			return nil, err
		}
		buf := fd.keyBuf
		for i := 0; i < n; i++ {
			if drop[i] {
				continue
			}
			buf = buf[:0]
			for _, e := range enc {
				buf = e(buf, i)
			}
			if _, ok := set.keys[string(buf)]; ok {
				drop[i] = true
				dropped++
			}
		}
		fd.keyBuf = buf
	}
	rec = fd.project(rec, out)
	switch {
	case dropped == 0:
		return rec, nil
	case fd.deleted >= 0:
		return fd.flag(rec, drop, pool), nil
	case dropped == n:
		rec.Release()
		return nil, nil
	}
	// One run of survivors (deletes at the head or tail only): a slice.
	lo, hi := 0, n
	for drop[lo] {
		lo++
	}
	for drop[hi-1] {
		hi--
	}
	if hi-lo == n-dropped {
		s := rec.NewSlice(int64(lo), int64(hi))
		rec.Release()
		return s, nil
	}
	if dropped != posDropped {
		fd.dropPos = fd.dropPos[:0] // equality deletes marked rows too
	}
	return fd.filter(ctx, rec, drop, n-dropped, pool, mem)
}

// positionsOnly reports whether the batches lose the rows of position
// deletes alone: no equality set to probe and no _deleted to set.
func (fd *fileDeletes) positionsOnly() bool {
	if fd.deleted >= 0 {
		return false
	}
	for _, set := range fd.eq {
		if !set.empty() {
			return false
		}
	}
	return true
}

// applyPositions is apply for position deletes alone, whose rows in rec
// are fd.dropPos: no per-row mark is built.
func (fd *fileDeletes) applyPositions(ctx context.Context, rec arrow.RecordBatch, out *arrow.Schema, pool, mem memory.Allocator) (arrow.RecordBatch, error) {
	n := int(rec.NumRows())
	rec = fd.project(rec, out)
	dp := fd.dropPos
	switch len(dp) {
	case 0:
		return rec, nil
	case n:
		rec.Release()
		return nil, nil
	}
	// One run of survivors (deletes at the head or tail only): a slice.
	lo := 0
	for lo < len(dp) && dp[lo] == lo {
		lo++
	}
	hi := n
	for t := len(dp) - 1; t >= lo && dp[t] == hi-1; t-- {
		hi--
	}
	if hi-lo == n-len(dp) {
		s := rec.NewSlice(int64(lo), int64(hi))
		rec.Release()
		return s, nil
	}
	return fd.filter(ctx, rec, nil, n-len(dp), pool, mem)
}

// posCursor walks the deleted positions of a file's bitmap batch after
// batch: batches come in file order, so each resumes where the last one
// ended (a batch before that restarts from the first position).
type posCursor struct {
	it   roaring64.ManyIntIterable64
	buf  []uint64 // positions read from it, from at on not passed yet
	at   int
	next uint64 // the end of the last batch
}

// collect appends to dst the positions of bm in [lo, hi), less lo, in
// order, and returns dst.
func (c *posCursor) collect(bm *roaring64.Bitmap, dst []int, lo, hi uint64) []int {
	if c.it == nil || lo < c.next {
		c.it, c.buf, c.at = bm.ManyIterator(), c.buf[:0], 0
	}
	c.next = hi
	for {
		if c.at >= len(c.buf) {
			if cap(c.buf) == 0 {
				c.buf = make([]uint64, 4096)
			}
			k := c.it.NextMany(c.buf[:cap(c.buf)])
			c.buf, c.at = c.buf[:k], 0
			if k == 0 {
				return dst
			}
		}
		for _, p := range c.buf[c.at:] {
			if p >= hi {
				return dst
			}
			c.at++
			if p >= lo {
				dst = append(dst, int(p-lo))
			}
		}
	}
}

// project drops the extra key columns after the read schema's.
func (fd *fileDeletes) project(rec arrow.RecordBatch, out *arrow.Schema) arrow.RecordBatch {
	if int(rec.NumCols()) == fd.keep {
		return rec
	}
	p := array.NewRecordBatch(out, rec.Columns()[:fd.keep], rec.NumRows())
	rec.Release()
	return p
}

// flag sets the _deleted column of rec from drop.
func (fd *fileDeletes) flag(rec arrow.RecordBatch, drop []bool, mem memory.Allocator) arrow.RecordBatch {
	n := len(drop)
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	bits := buf.Bytes()
	clear(bits)
	for i, d := range drop {
		if d {
			bitutil.SetBit(bits, i)
		}
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	col := array.MakeFromData(data)
	data.Release()
	buf.Release()
	cols := slices.Clone(rec.Columns())
	cols[fd.deleted] = col
	out := array.NewRecordBatch(rec.Schema(), cols, int64(n))
	col.Release()
	rec.Release()
	return out
}

// filter returns the rows of rec that drop does not mark (kept of them;
// drop may be nil when fd.dropPos holds every dropped row):
// flat columns by copying each run of kept values at once ([filterRuns])
// into buffers of pool (which may not be zeroed: every byte is written),
// others with Arrow's filter kernel, allocating from mem.
func (fd *fileDeletes) filter(ctx context.Context, rec arrow.RecordBatch, drop []bool, kept int, pool, mem memory.Allocator) (arrow.RecordBatch, error) {
	defer rec.Release()
	n := int(rec.NumRows())
	nb := int(bitutil.BytesForBits(int64(n)))
	if cap(fd.keepBits) < nb {
		fd.keepBits = make([]byte, nb)
	}
	keep := fd.keepBits[:nb]
	if len(fd.dropPos) == n-kept {
		// Position deletes alone: runs and bits from the positions.
		fd.runs = runsBetween(fd.runs, fd.dropPos, n)
		keepBitsOf(keep, fd.dropPos, n)
	} else {
		fd.runs = keptRuns(fd.runs, drop)
		clear(keep)
		for _, r := range fd.runs {
			bitutil.SetBitsTo(keep, int64(r[0]), int64(r[1]-r[0]), true)
		}
	}
	// Short runs (under 32 rows on average): fixed-width values are
	// compacted without a branch, by a byte of 0 or 1 a row.
	var keep1 []uint8
	if len(fd.runs)*32 > kept {
		if cap(fd.keep1) < n {
			fd.keep1 = make([]uint8, n)
		}
		keep1 = fd.keep1[:n]
		if len(fd.dropPos) == n-kept {
			for i := range keep1 {
				keep1[i] = 1
			}
			for _, p := range fd.dropPos {
				keep1[p] = 0
			}
		} else {
			for i, d := range drop {
				keep1[i] = 1
				if d {
					keep1[i] = 0
				}
			}
		}
	}
	var sel []int64
	if cap(fd.cols) < int(rec.NumCols()) {
		fd.cols = make([]arrow.Array, rec.NumCols())
	}
	cols := fd.cols[:rec.NumCols()]
	clear(cols)
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	for i, c := range rec.Columns() {
		if f, ok := filterRuns(c, fd.runs, keep, keep1, kept, pool); ok {
			cols[i] = f
			continue
		}
		if sel == nil {
			sel = arrowtake.Indices(keep, n)
		}
		f, err := arrowtake.Take(mem, c, sel)
		if err != nil {
			release()
			return nil, fmt.Errorf("reader: applying deletes to column %s: %w", rec.Schema().Field(i).Name, err)
		}
		cols[i] = f
	}
	out := array.NewRecordBatch(rec.Schema(), cols, int64(kept))
	release()
	return out, nil
}
