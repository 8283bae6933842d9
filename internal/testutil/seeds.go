package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// RealSeeds returns the contents of the files under the real test data
// folder (../shared/testdata/real beside the repository) whose base name
// matches one of patterns (filepath.Match), at most maxBytes each and at
// most 64 files, in path order: seeds for the fuzz targets, read in place
// at run time (the real files are never copied into the repository). It
// returns nothing when the folder is absent, so that a fuzz target still
// runs on its committed seeds.
func RealSeeds(maxBytes int64, patterns ...string) [][]byte {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return nil
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "testdata", "real")
	var out [][]byte
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || len(out) >= 64 {
			return nil
		}
		match := false
		for _, pat := range patterns {
			if ok, _ := filepath.Match(pat, d.Name()); ok {
				match = true
				break
			}
		}
		if !match {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxBytes {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, b)
		}
		return nil
	})
	return out
}
