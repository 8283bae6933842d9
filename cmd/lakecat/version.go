package main

import (
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// versionInfo is what `lakecat version` and `lakecat --version` print.
type versionInfo struct {
	Module   string // the module version: a tag (v0.3.0) or "(devel)" for a build from a checkout
	Commit   string // vcs.revision, "" when the build did not record it
	Time     string // vcs.time (RFC 3339)
	Modified bool   // vcs.modified: the checkout had uncommitted changes
	Go       string // the Go toolchain ("go1.26.0")
	Platform string // GOOS/GOARCH
	Drivers  []string
}

// readVersion reads the build information the Go toolchain embeds in the
// binary (debug.ReadBuildInfo).
func readVersion() versionInfo {
	v := versionInfo{Module: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, Drivers: storeDrivers()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Module = bi.Main.Version
	}
	v.Go = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String formats v as four lines:
//
//	lakecat (devel)
//	commit   0123abcd… (2026-12-01T17:00:00Z, modified)
//	go       go1.26.0 linux/amd64
//	drivers  azblob, gs, s3 (object stores; local paths always)
func (v versionInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "lakecat %s\n", v.Module)
	commit := v.Commit
	if commit == "" {
		commit = "unknown (built without VCS information)"
	}
	var extra []string
	if v.Time != "" {
		extra = append(extra, v.Time)
	}
	if v.Modified {
		extra = append(extra, "modified")
	}
	if len(extra) > 0 {
		commit += " (" + strings.Join(extra, ", ") + ")"
	}
	fmt.Fprintf(&b, "commit   %s\n", commit)
	fmt.Fprintf(&b, "go       %s %s\n", v.Go, v.Platform)
	drivers := "none: built with -tags lakecat_local (local paths only)"
	if len(v.Drivers) > 0 {
		drivers = strings.Join(v.Drivers, ", ") + " (object stores; local paths always)"
	}
	fmt.Fprintf(&b, "drivers  %s\n", drivers)
	return b.String()
}

func newVersionCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit, Go version and object-store drivers of this binary",
		Long: `Print the module version (a release tag, or "(devel)" for a build from a
checkout), the VCS commit and time the build recorded, the Go toolchain and
platform, and the object-store drivers linked into this build (the build
tags lakecat_nos3, lakecat_nogcs, lakecat_noazure and lakecat_local leave
them out). "lakecat --version" prints the same.`,
		Args: cobraArgs(cobra.NoArgs),
		RunE: func(c *cobra.Command, args []string) error {
			_, err := fmt.Fprint(f.Stdout, readVersion().String())
			return err
		},
	}
}

// logger returns the logger of --verbose: debug lines and warnings of the
// object-store SDKs, on stderr; nil (discard) without --verbose.
func (f *factory) logger() *slog.Logger {
	if !f.Verbose {
		return nil
	}
	return slog.New(slog.NewTextHandler(f.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
