package parquet

import "encoding/binary"

// zstdContentSize returns the sum of the content sizes that the zstd frames
// of src state (RFC 8878, "Zstandard Frames"; skippable frames count 0),
// walking frame and block headers without decoding. ok is false when a
// frame does not state its size or src does not parse; the caller then
// decodes to find out. The decoder parquet-go uses (klauspost/compress)
// refuses a frame that produces more than its stated size and allocates
// no more than it, so frames whose sizes sum to at most the page header's
// size need no decoding to be bounded.
func zstdContentSize(src []byte) (total uint64, ok bool) {
	for len(src) > 0 {
		if len(src) < 8 {
			return 0, false
		}
		magic := binary.LittleEndian.Uint32(src)
		if magic&0xfffffff0 == 0x184d2a50 { // skippable frame
			n := uint64(binary.LittleEndian.Uint32(src[4:]))
			if n > uint64(len(src)-8) {
				return 0, false
			}
			src = src[8+n:]
			continue
		}
		if magic != 0xfd2fb528 {
			return 0, false
		}
		fhd := src[4]
		p := 5
		single := fhd&0x20 != 0
		if !single {
			p++ // window descriptor
		}
		p += [4]int{0, 1, 2, 4}[fhd&3] // dictionary id
		var fcsLen int
		switch fhd >> 6 {
		case 0:
			if !single {
				return 0, false // no content size
			}
			fcsLen = 1
		case 1:
			fcsLen = 2
		case 2:
			fcsLen = 4
		case 3:
			fcsLen = 8
		}
		if p+fcsLen > len(src) {
			return 0, false
		}
		var fcs uint64
		for i := fcsLen - 1; i >= 0; i-- {
			fcs = fcs<<8 | uint64(src[p+i])
		}
		if fcsLen == 2 {
			fcs += 256
		}
		p += fcsLen
		for last := false; !last; {
			if p+3 > len(src) {
				return 0, false
			}
			h := uint32(src[p]) | uint32(src[p+1])<<8 | uint32(src[p+2])<<16
			p += 3
			last = h&1 != 0
			size := int(h >> 3)
			switch h >> 1 & 3 {
			case 0, 2: // raw, compressed: size bytes follow
			case 1: // RLE: one byte follows
				size = 1
			default:
				return 0, false
			}
			if size > len(src)-p {
				return 0, false
			}
			p += size
		}
		if fhd&4 != 0 {
			p += 4 // content checksum
		}
		if p > len(src) || total+fcs < total {
			return 0, false
		}
		total += fcs
		src = src[p:]
	}
	return total, true
}
