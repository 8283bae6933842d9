// Command mkcorrupt writes damaged copies of data files into a folder, as
// the hardening tests make them (package internal/corrupt): truncations and
// flipped bytes in the head, body and tail of each file.
//
//	go run ./internal/corrupt/cmd/mkcorrupt -out /tmp/corrupt [-seed 1] FILE ...
//
// Each copy is named "<file base name>.<kind>@<offset>". The same files and
// seed give the same copies.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lakecat/lakecat/internal/corrupt"
)

func main() {
	out := flag.String("out", "", "folder to write the damaged copies into (created)")
	seed := flag.Uint64("seed", 1, "seed of the mutations")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mkcorrupt -out DIR [-seed N] FILE ...")
		os.Exit(2)
	}
	n, err := Write(*out, *seed, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkcorrupt:", err)
		os.Exit(1)
	}
	fmt.Printf("%d damaged copies in %s\n", n, *out)
}

// Write writes the mutants of every file into dir and returns how many.
func Write(dir string, seed uint64, files []string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return n, err
		}
		for _, m := range corrupt.Mutants(filepath.Base(f), b, seed) {
			if err := os.WriteFile(filepath.Join(dir, m.Name), m.Data, 0o644); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
