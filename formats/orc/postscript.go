package orc

import (
	"fmt"
	"io"
)

const magic = "ORC"

// tail holds the decoded file tail.
type tail struct {
	ps     *postScript
	footer *footer
	nStats int // stripe statistics entries in the metadata section
	// meta is the decompressed metadata section (stripe statistics),
	// decoded on first use by [File.StripeStats].
	meta      []byte
	st        statsState
	dec       *decompressor
	decimal64 bool // file version 1.9999: decimals of precision ≤ 18 are RLE v2 integers
}

// readTail reads and decodes the postscript, footer and metadata (spec
// section "File Tail"): the last byte of the file is the postscript length;
// the postscript gives the footer and metadata lengths and the compression.
func readTail(r io.ReaderAt, size int64, name string, lim Limits) (*tail, error) {
	cerr := func(off int64, section string, err error) error {
		return &CorruptError{File: name, Offset: off, Section: section, Err: err}
	}
	if size <= int64(len(magic)) {
		return nil, cerr(0, "file", fmt.Errorf("file of %d bytes is too short for ORC", size))
	}
	n := min(size, maxTailRead)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return nil, withFile(fmt.Errorf("orc: reading file tail: %w", err), name)
	}
	psLen := int64(buf[n-1])
	if psLen == 0 || psLen+1 > n {
		return nil, cerr(size-1, "postscript", fmt.Errorf("postscript length %d with %d bytes in the file", psLen, size))
	}
	psOff := size - 1 - psLen
	ps, err := parsePostScript(buf[n-1-psLen : n-1])
	if err != nil {
		return nil, cerr(psOff, "postscript", err)
	}
	if ps.magic != magic {
		if ps.magic != "" {
			return nil, cerr(psOff, "postscript", fmt.Errorf("magic %q, want %q", ps.magic, magic))
		}
		// Hive 0.11 and earlier did not write the magic into the
		// postscript; the file then starts with it.
		head := make([]byte, len(magic))
		if _, err := r.ReadAt(head, 0); err != nil || string(head) != magic {
			return nil, cerr(0, "file header", fmt.Errorf("no ORC magic in the postscript or at the start of the file"))
		}
	}
	t := &tail{ps: ps}
	switch {
	case len(ps.version) == 0:
	case len(ps.version) >= 2 && ps.version[0] == 0 && ps.version[1] <= 12:
	case len(ps.version) >= 2 && ps.version[0] == 1 && ps.version[1] == 9999:
		t.decimal64 = true
	default:
		return nil, withFile(fmt.Errorf("%w: file version %v (this reader knows 0.11, 0.12 and the pre-2.0 1.9999)", ErrUnsupported, ps.version), name)
	}
	if ps.compression >= uint64(len(compNames)) {
		// The spec's CompressionKind ends at BROTLI (section
		// "Postscript"): another value is no codec lakecat lacks but a
		// damaged postscript (or a file cut short, read from elsewhere).
		return nil, cerr(psOff, "postscript", fmt.Errorf("compression kind %d, which the ORC spec does not define (0 to %d)",
			ps.compression, len(compNames)-1))
	}
	t.dec, err = newDecompressor(ps.compression, ps.blockSize)
	if err != nil {
		return nil, withFile(err, name)
	}
	if ps.footerLength > uint64(lim.FooterBytes) || ps.metadataLength > uint64(lim.FooterBytes) {
		return nil, cerr(psOff, "postscript", fmt.Errorf("%w: footer %d or metadata %d bytes", ErrTooLarge, ps.footerLength, ps.metadataLength))
	}
	fl, ml := int64(ps.footerLength), int64(ps.metadataLength)
	if fl+ml > psOff {
		return nil, cerr(psOff, "postscript", fmt.Errorf("footer %d + metadata %d bytes with %d bytes before the postscript", fl, ml, psOff))
	}
	footOff := psOff - fl
	metaOff := footOff - ml
	if tailLen := fl + ml + psLen + 1; tailLen > n {
		buf = make([]byte, tailLen)
		if _, err := r.ReadAt(buf, metaOff); err != nil && err != io.EOF {
			return nil, withFile(fmt.Errorf("orc: reading file tail: %w", err), name)
		}
		n = tailLen
	}
	at := func(off, l int64) []byte { s := off - (size - n); return buf[s : s+l] }
	fb, err := t.dec.decompress(nil, at(footOff, fl), int(lim.FooterBytes))
	if err != nil {
		return nil, cerr(footOff, "footer", err)
	}
	t.footer, err = parseFooter(fb)
	if err != nil {
		return nil, cerr(footOff, "footer", err)
	}
	if ml > 0 {
		mb, err := t.dec.decompress(nil, at(metaOff, ml), int(lim.FooterBytes))
		if err != nil {
			return nil, cerr(metaOff, "metadata", err)
		}
		if t.nStats, err = parseMetadata(mb); err != nil {
			return nil, cerr(metaOff, "metadata", err)
		}
		t.meta = mb
	}
	if t.footer.encrypted {
		return nil, withFile(fmt.Errorf("%w: column encryption", ErrUnsupported), name)
	}
	footLim := lim.FooterBytes
	for i, s := range t.footer.stripes {
		lim := uint64(metaOff)
		end := s.offset + s.indexLength + s.dataLength + s.footerLength
		if s.offset > lim || s.indexLength > lim || s.dataLength > lim || s.footerLength > lim ||
			end > lim || s.footerLength > uint64(footLim) {
			return nil, cerr(footOff, "footer", fmt.Errorf("stripe %d [%d,+%d+%d+%d) outside the file's %d data bytes",
				i, s.offset, s.indexLength, s.dataLength, s.footerLength, metaOff))
		}
	}
	// The footer's numberOfRows is the sum of its stripes' (ORC spec,
	// "Footer"); a file whose stripes hold other than the rows it states
	// would read short (or long) without an error. A footer without the
	// count (0, some early writers) is not checked.
	if n := t.footer.numberOfRows; n != 0 {
		var sum uint64
		for _, s := range t.footer.stripes {
			sum = min(sum+min(s.numberOfRows, 1<<62), 1<<63)
		}
		if sum != n {
			return nil, cerr(footOff, "footer", fmt.Errorf("the footer states %d rows, its stripes hold %d", n, sum))
		}
	}
	return t, nil
}
