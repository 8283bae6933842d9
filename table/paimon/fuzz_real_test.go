package paimon

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/internal/testutil"
)

// FuzzRealSnapshot is FuzzParseSnapshot seeded with the real Paimon
// snapshot files (paimon-cpp, paimon-rust, Paimon Java tables), read in
// place at run time.
func FuzzRealSnapshot(f *testing.F) {
	f.Add([]byte(snapshotSeed))
	for _, b := range testutil.RealSeeds(64<<10, "snapshot-*", "EARLIEST", "LATEST") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSnapshot(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidSnapshot) {
				t.Fatalf("error %v does not match ErrInvalidSnapshot", err)
			}
			return
		}
		if s.BaseManifestList == "" || s.DeltaManifestList == "" || s.SchemaID < 0 {
			t.Fatalf("accepted %+v", s)
		}
	})
}

// FuzzRealManifest is FuzzManifestEntries seeded with the real Paimon
// manifest files (Avro and ORC), read in place at run time.
func FuzzRealManifest(f *testing.F) {
	f.Add(synthManifest(f))
	for _, b := range testutil.RealSeeds(64<<10, "manifest-*") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := decodeManifestEntries(data); err != nil && !errors.Is(err, ErrCorruptManifest) && !errors.Is(err, avro.ErrUnsupported) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}
