package orc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestDictionaryLengthsShort: Impala's ORC position delete file of
// action=view (5 rows, file_path dictionary-encoded) with byte 398 flipped,
// in its dictionary's LENGTH stream, states one entry of 15 bytes where
// DICTIONARY_DATA holds 240: reading it fails with ErrCorrupt naming the
// file, stripe, column and stream, instead of yielding every file_path cut
// to "hdfs://localhos" and the rest of the stream never read.
func TestDictionaryLengthsShort(t *testing.T) {
	p := filepath.Join(testutil.RealDir(t, "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc/data/action=view"),
		"00000-0-delete-boroknagyz_20220830173925_010bf879-cf2f-4209-a70b-1a8309657106-job_16618645111571_0006-00001.orc")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	read := func(data []byte) (int64, error) {
		mem := testutil.CheckedAllocator(t)
		f, err := Open(bytes.NewReader(data), int64(len(data)), WithFileName("del.orc"))
		if err != nil {
			return 0, err
		}
		r, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem})
		if err != nil {
			return 0, err
		}
		defer r.Close()
		var n int64
		for {
			rec, err := r.Next(context.Background())
			if err == io.EOF {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			n += rec.NumRows()
			rec.Release()
		}
	}
	if n, err := read(data); err != nil || n != 5 {
		t.Fatalf("undamaged: %d rows, %v; want 5 rows", n, err)
	}
	data[398] ^= 0xff
	_, err = read(data)
	var ce *CorruptError
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.File != "del.orc" || ce.Section != "stripe 0" {
		t.Fatalf("err = %v, want a stripe 0 *CorruptError of del.orc", err)
	}
	const want = "orc: del.orc: stripe 0 at offset 3: column 1 (file_path): orc: corrupt file: dictionary entries cover 15 of the 240 bytes of DICTIONARY_DATA"
	if err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestStreamLeftUnread: a plain read (no skipped rows, so no row index
// seek) of a stripe whose direct string DATA stream holds bytes beyond
// the values its LENGTH stream states fails at the stripe's end with
// ErrCorrupt naming the stripe, column and stream, instead of dropping
// them unseen.
func TestStreamLeftUnread(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"exact", []byte("abc"), ""},
		{"bytes left", []byte("abcxyz"),
			"orc: stripe 0 at offset 3: column 1 (s): at the stripe's end: orc: corrupt file: DATA stream: decoding the stripe's rows ended at byte 3, not at the stream's end, byte 6"},
	} {
		fx := &fxFile{comp: compNone, rows: 2,
			types: []fxType{{kind: kStruct, sub: []uint32{1}, names: []string{"s"}}, {kind: kString}},
			enc:   []uint64{encDirect, encDirectV2},
			streams: []fxStream{
				{1, sData, tc.data}, {1, sLength, encV2(false, 1, 2)},
			}}
		b := fx.bytes(t)
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		mem := testutil.CheckedAllocator(t)
		r, err := f.NewBatchReader(nil, BatchOptions{Allocator: mem})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Next(context.Background())
		if rec != nil {
			rec.Release()
		}
		r.Close()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (!errors.Is(err, ErrCorrupt) || err == nil || err.Error() != tc.want):
			t.Errorf("%s: err = %v\nwant %s", tc.name, err, tc.want)
		}
	}
}
