package orc

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/snappy"
)

// TestSeekSmallReadWindows runs the row index tests with read windows far
// smaller than the streams (not dividing chunks or stream lengths), so
// that a compressed stream's chunks are read window by window: the chunk
// offsets the damaged-position check maps to decompressed bytes are then
// counted from the windows read (stream.read), and a seek lands in a
// window not yet read. Seeking must still give exactly the batches of
// decoding and dropping, with no damage reported on good files, and each
// damaged position must give the same error as with whole-stream windows;
// a reader moved to other stripes (SetStripes), mid-stripe too, restarts
// its windowed streams.
func TestSeekSmallReadWindows(t *testing.T) {
	defer func(w int) { readWindow = w }(readWindow)
	for _, w := range []int{1001, 61} {
		readWindow = w
		t.Run("generated", TestSeekGenerated)
		t.Run("damaged", TestSeekDamagedPositionInStream)
		t.Run("damaged-uncompressed", TestSeekDamagedPositionUncompressed)
		t.Run("corrupt", TestSeekCorruptPositions)
		t.Run("set-stripes", TestSetStripes)
	}
	readWindow = 4093
	t.Run("real", TestSeekRealFiles)
}

// TestStreamOffsets: the offsets the damaged-position check compares
// (stream.offset of a decoder's window, the chunk marks, stream.expected
// and stream.end) count the decompressed bytes a stream has given, through
// windows read a few bytes at a time and through readInto, which
// decompresses chunks straight into the caller's buffer: snappy chunks of
// 5, 7, 3 and 10 bytes, the third stored original.
func TestStreamOffsets(t *testing.T) {
	defer func(w int) { readWindow = w }(readWindow)
	readWindow = 4
	var file []byte
	var want []byte
	var rawOff []int64
	for i, n := range []int{5, 7, 3, 10} {
		plain := make([]byte, n)
		for j := range plain {
			plain[j] = byte(len(want) + j)
		}
		c, orig := snappy.Encode(nil, plain), 0
		if i == 2 {
			c, orig = plain, 1
		}
		rawOff = append(rawOff, int64(len(file)))
		h := len(c)<<1 | orig
		file = append(append(file, byte(h), byte(h>>8), byte(h>>16)), c...)
		want = append(want, plain...)
	}
	dec, err := newDecompressor(compSnappy, 64)
	if err != nil {
		t.Fatal(err)
	}
	var s stream
	s.reset(dec, bytes.NewReader(file), sData, 0, len(file), 1<<20)
	dst := make([]byte, 6)
	b, p, err := s.readInto(dst, nil, 0)
	if err != nil || !bytes.Equal(dst, want[:6]) || s.offset(p) != 6 {
		t.Fatalf("first 6 bytes: %v %v, offset %d", dst, err, s.offset(p))
	}
	if b, p, err = s.more(b, p, 4); err != nil || s.offset(p) != 6 || !bytes.Equal(b[p:p+4], want[6:10]) {
		t.Fatalf("more: %v, offset %d", err, s.offset(p))
	}
	dst = make([]byte, 8) // bytes 6-13: the rest of chunk 1, 2 of the original chunk 2
	if b, p, err = s.readInto(dst, b, p); err != nil || !bytes.Equal(dst, want[6:14]) || s.offset(p) != 14 {
		t.Fatalf("bytes 6-13: %v %v, offset %d", dst, err, s.offset(p))
	}
	dst = make([]byte, 6) // bytes 14-19: the rest of chunk 2, 5 of chunk 3
	if b, p, err = s.readInto(dst, b, p); err != nil || !bytes.Equal(dst, want[14:20]) || s.offset(p) != 20 {
		t.Fatalf("bytes 14-19: %v %v, offset %d", dst, err, s.offset(p))
	}
	for i, d := range []int64{0, 5, 12, 15} {
		if e, ok := s.expected(uint64(rawOff[i]), 1); !ok || e != d+1 {
			t.Errorf("chunk %d at raw byte %d: expected %d %v, want %d", i, rawOff[i], e, ok, d+1)
		}
	}
	if e, err := s.end(); err != nil || e != int64(len(want)) || s.offset(p) != 20 || !bytes.Equal(s.buf[p:], want[20:]) {
		t.Fatalf("end %d %v, offset %d", e, err, s.offset(p))
	}
	s.release()
}
