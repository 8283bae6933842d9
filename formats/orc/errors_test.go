package orc

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// readAll opens path and decodes every batch, returning the first error.
func readAll(path string, mem memory.Allocator) (rows int64, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	st, _ := fh.Stat()
	f, err := Open(fh, st.Size())
	if err != nil {
		return 0, err
	}
	br, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem, BatchRows: 1024})
	if err != nil {
		return 0, err
	}
	defer br.Close()
	for {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		rows += rec.NumRows()
		rec.Release()
	}
}

// TestBadFiles checks that broken and unsupported files fail with the
// expected typed error and no panic.
func TestBadFiles(t *testing.T) {
	dir := examplesDir(t)
	cases := []struct {
		file string
		want error
		msg  string
	}{
		{"zero.orc", ErrCorrupt, "orc: file at offset 0: file of 0 bytes is too short for ORC"},
		{"version1999.orc", ErrUnsupported, "orc: unsupported feature: file version [19 99] (this reader knows 0.11, 0.12 and the pre-2.0 1.9999)"},
		{"corrupt/missing_blob_stream_in_string_dict.orc", ErrCorrupt, ""},
		{"corrupt/missing_length_stream_in_string_dict.orc", ErrCorrupt, ""},
		{"corrupt/negative_dict_entry_lengths.orc", ErrCorrupt, ""},
		{"corrupt/stripe_footer_bad_column_encodings.orc", ErrCorrupt, ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			_, err := readAll(filepath.Join(dir, c.file), mem)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if c.msg != "" && err.Error() != c.msg {
				t.Errorf("error %q, want %q", err, c.msg)
			}
			t.Logf("%v", err)
		})
	}
}
