package hudilog_test

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/formats/hudilog"
	"github.com/lakecat/lakecat/internal/hudiwrite"
	"github.com/lakecat/lakecat/internal/testutil"
)

// realLog reads the one log file of hudi-rs's v6 merge-on-read sample
// table from its zip.
func realLog(t testing.TB) []byte {
	t.Helper()
	zp := filepath.Join(testutil.RealDir(t, "hudi-rs", "crates", "test", "data", "sample_table"), "mor", "parquet", "v6_nonpartitioned.zip")
	zr, err := zip.OpenReader(zp)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "__MACOSX") || !strings.Contains(f.Name, ".log.") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Fatal("no log file in the zip")
	return nil
}

func readAll(b []byte) ([]*hudilog.Block, error) {
	r := hudilog.NewReader(bytes.NewReader(b), int64(len(b)), "f.log", hudilog.Limits{})
	var out []*hudilog.Block
	for {
		blk, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, blk)
	}
}

// The hudi-rs v6 log file (Spark, Hudi 0.x) holds one Parquet data block
// written by the second deltacommit: its content is a Parquet file.
func TestRealParquetBlock(t *testing.T) {
	b := realLog(t)
	blocks, err := readAll(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 {
		t.Fatalf("%d blocks", len(blocks))
	}
	blk := blocks[0]
	if blk.Type != hudilog.ParquetDataBlock || blk.Instant() != "20250117083136333" || blk.Offset != 0 || len(blk.Header) != 2 || len(blk.Footer) != 0 {
		t.Errorf("block %v instant %s header keys %d footer %d", blk.Type, blk.Instant(), len(blk.Header), len(blk.Footer))
	}
	if !strings.Contains(blk.Header[hudilog.Schema], `"name":"_hoodie_record_key"`) {
		t.Errorf("schema %s", blk.Header[hudilog.Schema])
	}
	c := blk.Content
	if len(c) < 8 || string(c[:4]) != "PAR1" || string(c[len(c)-4:]) != "PAR1" {
		t.Errorf("content is not a Parquet file: %d bytes", len(c))
	}
}

const avroSchema = `{"type":"record","name":"r","fields":[{"name":"_hoodie_record_key","type":["null","string"]},{"name":"id","type":"int"},{"name":"ts","type":"long"}]}`

func TestRoundTrip(t *testing.T) {
	data, err := hudiwrite.AvroData("20240101000000001", avroSchema, []map[string]any{
		{"_hoodie_record_key": "1", "id": 1, "ts": int64(10)},
		{"_hoodie_record_key": "2", "id": 2, "ts": int64(20)},
	})
	if err != nil {
		t.Fatal(err)
	}
	del, err := hudiwrite.DeleteBlock("20240101000000002", []hudiwrite.Delete{{Key: "1", Partition: "p", Ordering: int64(11)}, {Key: "2", Ordering: nil}, {Key: "3", Ordering: "x"}})
	if err != nil {
		t.Fatal(err)
	}
	file := hudiwrite.Encode(data, del, hudiwrite.Rollback("20240101000000003", "20240101000000002"))
	blocks, err := readAll(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 || blocks[0].Type != hudilog.AvroDataBlock || blocks[1].Type != hudilog.DeleteBlock || blocks[2].Type != hudilog.CommandBlock {
		t.Fatalf("blocks %v", blocks)
	}
	if blocks[2].Header[hudilog.TargetInstantTime] != "20240101000000002" || blocks[2].Header[hudilog.CommandBlockType] != hudilog.RollbackCommand {
		t.Errorf("rollback header %v", blocks[2].Header)
	}
	ocf, n, err := hudilog.AvroContainer(blocks[0], "f.log")
	if err != nil || n != 2 {
		t.Fatalf("avro container: %d, %v", n, err)
	}
	f, err := avro.Open(bytes.NewReader(ocf), int64(len(ocf)))
	if err != nil {
		t.Fatal(err)
	}
	if f.NumRows() != 2 {
		t.Errorf("container rows %d", f.NumRows())
	}
	dels, err := hudilog.DeleteRecords(blocks[1], "f.log")
	if err != nil {
		t.Fatal(err)
	}
	want := []hudilog.DeleteRecord{
		{Key: "1", Partition: "p", Ordering: hudilog.Ordering{Kind: hudilog.OrderingLong, Int: 11}},
		{Key: "2", Ordering: hudilog.Ordering{Kind: hudilog.OrderingNull}},
		{Key: "3", Ordering: hudilog.Ordering{Kind: hudilog.OrderingString, Bytes: []byte("x")}},
	}
	if len(dels) != len(want) {
		t.Fatalf("deletes %+v", dels)
	}
	for i := range want {
		if dels[i].Key != want[i].Key || dels[i].Partition != want[i].Partition || dels[i].Ordering.Kind != want[i].Ordering.Kind ||
			dels[i].Ordering.Int != want[i].Ordering.Int || !bytes.Equal(dels[i].Ordering.Bytes, want[i].Ordering.Bytes) {
			t.Errorf("delete %d: %+v, want %+v", i, dels[i], want[i])
		}
	}
}

// TestCorruptBlocks: each malformed block is a CorruptError (class
// ErrCorrupt) naming the file and the offset, or ErrUnsupported.
func TestCorruptBlocks(t *testing.T) {
	good := hudiwrite.EncodeBlock(hudiwrite.Rollback("20240101000000003", "20240101000000002"))
	set := func(off int, v uint64, width int) []byte {
		b := bytes.Clone(good)
		if width == 8 {
			binary.BigEndian.PutUint64(b[off:], v)
		} else {
			binary.BigEndian.PutUint32(b[off:], uint32(v))
		}
		return b
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"bad magic", append([]byte("#HUDX#"), good[6:]...), `hudilog: corrupt magic in f.log at offset 0: "#HUDX#", want "#HUDI#"`},
		{"size beyond file", set(6, 1<<40, 8), "hudilog: corrupt block in f.log at offset 6: block size 1099511627776 outside [32, " + itoa(len(good)-14) + "] (the bytes left)"},
		{"size too small", set(6, 3, 8), "hudilog: corrupt block in f.log at offset 6: block size 3 outside [32, " + itoa(len(good)-14) + "] (the bytes left)"},
		{"unknown type", set(18, 9, 4), "hudilog: corrupt block in f.log at offset 18: unknown block type 9"},
		{"header count", set(22, 1<<30, 4), "hudilog: corrupt header in f.log at offset 26: 1073741824 entries (at most 64, and 8 bytes each)"},
		{"truncated", good[:len(good)-3], "hudilog: corrupt block in f.log at offset 6: block size " + itoa(len(good)-14) + " outside [32, " + itoa(len(good)-17) + "] (the bytes left)"},
		{"reverse pointer", set(len(good)-8, 5, 8), "hudilog: corrupt block in f.log at offset " + itoa(len(good)-8) + ": reverse pointer 5, want " + itoa(len(good)-8)},
	}
	for _, c := range cases {
		_, err := readAll(c.data)
		if !errors.Is(err, hudilog.ErrCorrupt) || !errors.Is(err, lakecat.ErrCorrupt) || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
		var ce *hudilog.CorruptError
		if !errors.As(err, &ce) || ce.File != "f.log" {
			t.Errorf("%s: not a CorruptError naming the file: %#v", c.name, err)
		}
	}
	_, err := readAll(set(14, 2, 4))
	if !errors.Is(err, hudilog.ErrUnsupported) || !errors.Is(err, lakecat.ErrUnsupported) {
		t.Errorf("version 2: %v", err)
	}
	// A block over the cap.
	r := hudilog.NewReader(bytes.NewReader(good), int64(len(good)), "f.log", hudilog.Limits{BlockBytes: 40})
	if _, err := r.Next(); !errors.Is(err, hudilog.ErrCorrupt) || !strings.Contains(err.Error(), "above the 40-byte cap") {
		t.Errorf("cap: %v", err)
	}
}

func TestCorruptContent(t *testing.T) {
	blk := &hudilog.Block{Type: hudilog.AvroDataBlock, Header: map[hudilog.HeaderKey]string{hudilog.Schema: avroSchema}, ContentOffset: 100,
		Content: []byte{0, 0, 0, 3, 0x7f, 0xff, 0xff, 0xff}}
	if _, _, err := hudilog.AvroContainer(blk, "f.log"); !errors.Is(err, hudilog.ErrCorrupt) ||
		err.Error() != "hudilog: corrupt avro data block in f.log at offset 104: 2147483647 records cannot fit in 0 bytes" {
		t.Errorf("record count: %v", err)
	}
	blk.Content = []byte{0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 9, 1}
	if _, _, err := hudilog.AvroContainer(blk, "f.log"); !errors.Is(err, hudilog.ErrCorrupt) || !strings.Contains(err.Error(), "record 0 of 9 bytes, 1 left") {
		t.Errorf("record length: %v", err)
	}
	del := &hudilog.Block{Type: hudilog.DeleteBlock, Content: []byte{0, 0, 0, 3, 0, 0, 0, 2, 0x02, 0x02}}
	if _, err := hudilog.DeleteRecords(del, "f.log"); !errors.Is(err, hudilog.ErrCorrupt) {
		t.Errorf("delete records: %v", err)
	}
	del.Content = []byte{0, 0, 0, 2, 0, 0, 0, 0}
	if _, err := hudilog.DeleteRecords(del, "f.log"); !errors.Is(err, hudilog.ErrUnsupported) {
		t.Errorf("delete v2: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzReader: any bytes give blocks or an error, never a panic; decoding
// the blocks' contents as the data the type says does not panic either.
func FuzzReader(f *testing.F) {
	data, _ := hudiwrite.AvroData("20240101000000001", avroSchema, []map[string]any{{"_hoodie_record_key": "1", "id": 1, "ts": int64(10)}})
	del, _ := hudiwrite.DeleteBlock("20240101000000002", []hudiwrite.Delete{{Key: "1", Ordering: int64(3)}})
	f.Add(hudiwrite.Encode(data, del, hudiwrite.Rollback("20240101000000003", "20240101000000002")))
	f.Add(realLog(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		blocks, _ := readAll(b)
		for _, blk := range blocks {
			switch blk.Type {
			case hudilog.AvroDataBlock:
				hudilog.AvroContainer(blk, "f.log")
			case hudilog.DeleteBlock:
				hudilog.DeleteRecords(blk, "f.log")
			}
		}
	})
}
