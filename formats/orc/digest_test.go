package orc

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var updateDigests = flag.Bool("update", false, "rewrite testdata/real_digests.txt from this decoder's output")

// digestFile is the golden list of TestRealFileDigests: one line per real
// ORC file, "path rows sha256" (or "path error" when the file does not
// read), the hash over every column's Arrow type and every row's value.
const digestFile = "testdata/real_digests.txt"

// fileDigest reads every column of the ORC file at path in batches of
// batch rows and returns its golden line's fields after the path: the row
// count and a SHA-256 over the batch schema's types and each value as
// arrow's ValueStr prints it ("(null)" for a null), so two decoders agree
// exactly when they give the same types and the same values row by row,
// whatever their batch boundaries. A file that fails to open or decode
// gives "error".
func fileDigest(t *testing.T, path string, batch int) string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "error"
	}
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, BatchRows: batch})
	if err != nil {
		return "error"
	}
	defer br.Close()
	h := sha256.New()
	fmt.Fprintln(h, br.Schema())
	cols := make([]strings.Builder, len(br.Schema().Fields()))
	var rows int64
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "error"
		}
		for c, a := range rec.Columns() {
			writeValues(&cols[c], a)
		}
		rows += rec.NumRows()
		rec.Release()
	}
	for i := range cols {
		io.WriteString(h, cols[i].String())
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%d %x", rows, h.Sum(nil))
}

// writeValues appends one line per row of a: its value, or "(null)".
func writeValues(b *strings.Builder, a arrow.Array) {
	for i := range a.Len() {
		if a.IsNull(i) {
			b.WriteString(array.NullValueStr)
		} else {
			b.WriteString(a.ValueStr(i))
		}
		b.WriteByte('\n')
	}
}

// TestRealFileDigests decodes every ORC file under ../shared/testdata/real
// at two batch sizes and compares types and values against the golden
// digests (rewritten with -update, only when a change of output is
// intended; the committed ones come from the decoder that appended int64
// values batch by batch and scattered them). 777 rows per batch puts batch ends inside RLE runs, PRESENT
// bytes and compression chunks.
func TestRealFileDigests(t *testing.T) {
	root := realDir(t)
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".orc") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	if len(paths) == 0 {
		t.Fatal("no ORC files under", root)
	}
	got := map[string]string{}
	var lines []string
	for _, p := range paths {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		d := fileDigest(t, p, 0)
		if d777 := fileDigest(t, p, 777); d777 != d {
			t.Errorf("%s: %s at the default batch size, %s at 777 rows per batch", rel, d, d777)
		}
		got[rel] = d
		lines = append(lines, rel+" "+d)
	}
	if *updateDigests {
		if err := os.WriteFile(digestFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(digestFile)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		p, d, _ := strings.Cut(l, " ")
		want[p] = d
	}
	for p, d := range got {
		if w, ok := want[p]; !ok {
			t.Errorf("%s: not in %s (run with -update)", p, digestFile)
		} else if w != d {
			t.Errorf("%s: got %s, want %s", p, d, w)
		}
	}
	for p := range want {
		if _, ok := got[p]; !ok {
			t.Errorf("%s: in %s but not found", p, digestFile)
		}
	}
	t.Logf("%d ORC files, types and values as golden", len(got))
}
