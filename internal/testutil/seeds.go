package testutil

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lakecat/lakecat/internal/realdata"
)

// RealSeeds returns the contents of the files under the real test data
// folder (see package internal/realdata) whose base name
// matches one of patterns (filepath.Match), at most maxBytes each and at
// most 64 files, in path order: seeds for the fuzz targets, read in place
// at run time (the real files are never copied into the repository). It
// returns nothing when the folder is absent, so that a fuzz target still
// runs on its committed seeds.
func RealSeeds(maxBytes int64, patterns ...string) [][]byte {
	root := realdata.Present()
	if root == "" {
		return nil
	}
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
