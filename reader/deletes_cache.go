package reader

import (
	"context"
	"fmt"
	"sync"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/table"
)

// A position delete file that applies to several tasks of one scan (a
// file without referenced_data_file, shared by the data files of a
// partition, or the delete file of a data file split into several tasks)
// is read once: its positions are kept, grouped by the file_path they
// name, until the last task it applies to has taken its own. The positions
// held count against the scan's memory budget (pinned while held, like the
// equality key sets) and against maxCachedPositionBytes; a file whose
// positions do not fit is read by each task again, for its data file only.

// maxCachedPositionBytes caps the positions of shared position delete
// files held at once by one scan (their roaring bitmaps and the paths
// they are grouped by), whatever the memory budget.
const maxCachedPositionBytes = 256 << 20

// posEntry is one shared position delete file.
type posEntry struct {
	once   sync.Once
	err    error
	cached bool // false: the positions did not fit, each task reads the file
	// all holds the positions of a file with referenced_data_file (every
	// row names that file); byPath those of another file, by file_path as
	// written.
	all    *roaring64.Bitmap
	byPath map[string]*roaring64.Bitmap
	bytes  int64
	refs   int // tasks yet to take their positions

	mu       sync.Mutex
	resolved map[string]map[string][]*roaring64.Bitmap // path rules → resolved path → positions
}

// countPositionRefs records, for every position delete file, how many of
// the scan's tasks it applies to; only files with two or more are cached.
func (c *deleteCache) countPositionRefs(task table.Task) {
	for _, f := range task.Deletes {
		if f.Content != table.PositionDeletes {
			continue
		}
		if c.posRefs == nil {
			c.posRefs = map[string]int{}
		}
		c.posRefs[f.Path]++
	}
}

// sharedPositions returns the positions the position delete file f
// deletes in d's data file, from the scan's copy of the file (read by the
// first task that needs it); ok is false when f is not shared or its
// positions do not fit, and the caller reads it itself.
func (c *deleteCache) sharedPositions(ctx context.Context, d *taskDeletes, f table.DeleteFile, mem memory.Allocator) (bm *roaring64.Bitmap, ok bool, err error) {
	c.posMu.Lock()
	e := c.pos[f.Path]
	if e == nil {
		if c.posRefs[f.Path] < 2 {
			c.posMu.Unlock()
			return nil, false, nil
		}
		if c.pos == nil {
			c.pos = map[string]*posEntry{}
		}
		e = &posEntry{refs: c.posRefs[f.Path]}
		c.pos[f.Path] = e
	}
	c.posMu.Unlock()
	built := false
	e.once.Do(func() {
		built = true
		e.err = d.readAllPositions(ctx, f, e, mem)
		if e.err == nil {
			e.cached = c.holdPositions(e.bytes)
			if !e.cached {
				// The first task keeps its own positions of the file read.
				bm = e.lookup(d)
				e.all, e.byPath = nil, nil
			}
		}
	})
	if e.err != nil {
		return nil, true, e.err
	}
	if !e.cached {
		return bm, built, nil
	}
	bm = e.lookup(d)
	c.posMu.Lock()
	if e.refs--; e.refs <= 0 {
		delete(c.pos, f.Path)
		c.posHeld -= e.bytes
		if c.budget != nil {
			c.budget.unpinBytes(e.bytes)
		}
	}
	c.posMu.Unlock()
	return bm, true, nil
}

// holdPositions reports whether n more bytes of positions fit in the
// cache's cap and the scan's budget, and holds them if so.
func (c *deleteCache) holdPositions(n int64) bool {
	c.posMu.Lock()
	defer c.posMu.Unlock()
	if c.posHeld+n > maxCachedPositionBytes {
		return false
	}
	if c.budget != nil {
		if ok, _, _ := c.budget.pin(n); !ok {
			return false
		}
	}
	c.posHeld += n
	return true
}

// lookup returns (a copy of) the positions of e for d's data file: those
// of file_path entries naming its stored path, or whose canonical forms
// meet the data file's under d's path rules, as
// [taskDeletes.dataFileMatcher] decides.
func (e *posEntry) lookup(d *taskDeletes) *roaring64.Bitmap {
	if e.all != nil {
		return e.all.Clone()
	}
	out := roaring64.New()
	if bm := e.byPath[d.dataPaths[0]]; bm != nil {
		out.Or(bm)
	}
	schemeless := d.schemeless()
	key := fmt.Sprintf("%v", schemeless)
	if d.paths != nil {
		key += fmt.Sprintf("%+v", *d.paths)
	}
	res := d.resolverOf()
	e.mu.Lock()
	m := e.resolved[key]
	if m == nil {
		m = map[string][]*roaring64.Bitmap{}
		for p, bm := range e.byPath {
			for _, k := range pathKeys(res, p, schemeless) {
				m[k] = append(m[k], bm)
			}
		}
		if e.resolved == nil {
			e.resolved = map[string]map[string][]*roaring64.Bitmap{}
		}
		e.resolved[key] = m
	}
	e.mu.Unlock()
	for _, k := range d.dataKeys(res) {
		for _, bm := range m[k] {
			out.Or(bm)
		}
	}
	return out
}

// readAllPositions reads every position of the position delete file f
// into e (all, or byPath by file_path) and sets e.bytes to their
// estimated size.
func (d *taskDeletes) readAllPositions(ctx context.Context, f table.DeleteFile, e *posEntry, mem memory.Allocator) error {
	read := posDeleteSchema
	if f.ReferencedDataFile != "" {
		read = posOnlySchema
		e.all = roaring64.New()
	} else {
		e.byPath = map[string]*roaring64.Bitmap{}
	}
	rr, err := d.openDeleteFile(ctx, f, read, posDeleteMapping, nil, mem)
	if err != nil {
		return err
	}
	defer rr.Release()
	var buf []uint64
	var cur *roaring64.Bitmap
	last := ""
	flush := func() {
		if len(buf) > 0 {
			cur.AddMany(buf)
			buf = buf[:0]
		}
	}
	cur = e.all
	var rows int64
	for rr.Next() {
		rec := rr.RecordBatch()
		rows += rec.NumRows()
		pos, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Int64)
		var paths *array.String
		if rec.NumCols() == 2 {
			paths, _ = rec.Column(0).(*array.String)
		}
		if !ok || (rec.NumCols() == 2 && paths == nil) {
			return fmt.Errorf("file_path or pos of an unexpected type")
		}
		for i := 0; i < pos.Len(); i++ {
			if paths != nil {
				// Delete files are sorted by file_path: a new path
				// starts a new group.
				if p := paths.Value(i); cur == nil || p != last {
					flush()
					last = string([]byte(p))
					if cur = e.byPath[last]; cur == nil {
						cur = roaring64.New()
						e.byPath[last] = cur
					}
				}
			}
			p := pos.Value(i)
			if p < 0 {
				return fmt.Errorf("row %d: negative position %d", i, p)
			}
			buf = append(buf, uint64(p))
		}
		flush()
	}
	if err := rr.Err(); err != nil {
		return err
	}
	if err := checkRecordCount(f, rows, "rows"); err != nil {
		return err
	}
	if e.all != nil {
		e.all.RunOptimize()
		e.bytes = int64(e.all.GetSizeInBytes())
	}
	for p, bm := range e.byPath {
		bm.RunOptimize()
		e.bytes += int64(bm.GetSizeInBytes()) + int64(len(p)) + posPathBytes
	}
	return nil
}

// posPathBytes is the estimated overhead of one file_path group of a
// cached position delete file: its map slot, string header and bitmap
// header.
const posPathBytes = 96
