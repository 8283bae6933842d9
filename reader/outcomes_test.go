package reader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
)

// TestDocumentedOutcomes pins what lakecat does with the malformed and
// unusual real files: the apache/orc corrupt examples, zero.orc,
// version1999.orc, parquet-testing's malformed and corrupt-checksum files and
// unknown-logical-type.parquet. Each is a clear error (its class and exact
// text) or exactly these rows (read in the file's own schema through
// reader.Open).
func TestDocumentedOutcomes(t *testing.T) {
	real := testutil.RealDir(t)
	cases := []struct {
		rel   string
		class error  // nil: the file reads
		err   string // the exact error text
		rows  int    // rows read, when it reads
		first string // the first row as JSON, when it reads
	}{
		// apache/orc examples/corrupt: "must fail cleanly".
		{rel: "apache-orc/examples/corrupt/missing_blob_stream_in_string_dict.orc", class: lakecat.ErrCorrupt,
			err: "missing_blob_stream_in_string_dict.orc: orc: stripe 0 at offset 3: column 10 (string_col): orc: corrupt file: dictionary entry 0 of length 1 with 0 bytes of DICTIONARY_DATA left"},
		{rel: "apache-orc/examples/corrupt/missing_length_stream_in_string_dict.orc", class: lakecat.ErrCorrupt,
			err: "missing_length_stream_in_string_dict.orc: orc: metadata at offset 1266: proto: invalid field number"},
		{rel: "apache-orc/examples/corrupt/negative_dict_entry_lengths.orc", class: lakecat.ErrCorrupt,
			err: "negative_dict_entry_lengths.orc: orc: stripe 0 at offset 3: column 9 (date_string_col): orc: corrupt file: dictionary entry 1 of length -17 with 240 bytes of DICTIONARY_DATA left"},
		{rel: "apache-orc/examples/corrupt/stripe_footer_bad_column_encodings.orc", class: lakecat.ErrCorrupt,
			err: "stripe_footer_bad_column_encodings.orc: orc: stripe 0 footer at offset 336: unexpected EOF"},
		// A 0-byte file is cut short: corrupt, not an unknown format.
		{rel: "apache-orc/examples/zero.orc", class: lakecat.ErrCorrupt,
			err: "zero.orc: reader: unknown file format: 0 bytes"},
		// A future file version: refused, not guessed at.
		{rel: "apache-orc/examples/version1999.orc", class: lakecat.ErrUnsupported,
			err: "version1999.orc: orc: unsupported feature: file version [19 99] (this reader knows 0.11, 0.12 and the pre-2.0 1.9999)"},
		// parquet-testing: "malformed dictionary (must error)".
		{rel: "parquet-testing/data/nation.dict-malformed.parquet", class: lakecat.ErrCorrupt,
			err: "nation.dict-malformed.parquet: parquet: corrupt page header of name at offset 438: page claims 28 compressed bytes, 13 remain in the chunk"},
		// Page CRCs are verified when the writer stored them.
		{rel: "parquet-testing/data/datapage_v1-corrupt-checksum.parquet", class: lakecat.ErrCorrupt,
			err: `datapage_v1-corrupt-checksum.parquet: parquet: corrupt page of column a: crc32 checksum mismatch in page of column "a": want=0xBBCE3B9D got=0x0F4F6D0A: corrupted parquet page`},
		{rel: "parquet-testing/data/rle-dict-uncompressed-corrupt-checksum.parquet", class: lakecat.ErrCorrupt,
			err: `rle-dict-uncompressed-corrupt-checksum.parquet: parquet: corrupt page of column long_field: crc32 checksum mismatch in page of column "long_field": want=0x6522DF6A got=0x6522DF69: corrupted parquet page`},
		// Their twins with correct checksums read.
		{rel: "parquet-testing/data/datapage_v1-uncompressed-checksum.parquet", rows: 5120, first: `{"a":50462976,"b":1734763876}`},
		{rel: "parquet-testing/data/plain-dict-uncompressed-checksum.parquet", rows: 1000,
			first: `{"long_field":0,"binary_field":"YTY1NWZkMGUtOTk0OS00MDU5LWJjYWUtZmQ2YTAwMmE0NjUy"}`},
		// An unknown logical type falls back to the physical type (binary).
		{rel: "parquet-testing/data/unknown-logical-type.parquet", rows: 3,
			first: `{"column with known type":"known string 1","column with unknown type":"dW5rbm93biBzdHJpbmcgMQ=="}`},
		// Presto's optional map key: read.
		{rel: "parquet-testing/data/incorrect_map_schema.parquet", rows: 1, first: `{"my_map":{"parent":"another","name":"report"}}`},
		// A string column chunk over 2 GB: refused within the column chunk
		// limit before anything is read.
		{rel: "parquet-testing/data/large_string_map.brotli.parquet", class: lakecat.ErrUnsupported,
			err: "large_string_map.brotli.parquet: parquet: file: column arr.key_value.key: row group 0 holds 2147483749 uncompressed bytes (cap 1073741824)"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.rel), func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(real, c.rel))
			if err != nil {
				t.Fatal(err)
			}
			mem := testutil.CheckedAllocator(t)
			out, err := readAll(context.Background(), filepath.Base(c.rel), b, mem)
			if c.class != nil {
				if err == nil {
					t.Fatalf("read without error, want %q", c.err)
				}
				if got := lakecat.ClassOf(err); got != c.class {
					t.Errorf("class %v, want %v", got, c.class)
				}
				// protobuf-go's messages randomly use U+00A0 for a space, so
				// that no one pins them; compare with plain spaces.
				if strings.ReplaceAll(err.Error(), "\u00a0", " ") != c.err {
					t.Errorf("error\n%s\nwant\n%s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v, want %d rows", err, c.rows)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			// The first lines are the Arrow schema.
			var rows []string
			for _, l := range lines {
				if strings.HasPrefix(l, "{") {
					rows = append(rows, l)
				}
			}
			if len(rows) != c.rows {
				t.Errorf("%d rows, want %d", len(rows), c.rows)
			}
			if len(rows) > 0 && rows[0] != c.first {
				t.Errorf("first row %s, want %s", rows[0], c.first)
			}
		})
	}
}
