// Command lakecat prints the rows of Parquet and ORC data files of evolved
// lakehouse tables in the table's current schema, with columns matched by
// field id.
//
//	lakecat cat [PATH ...] [--schema S.json] [--limit N] [--format table|jsonl|csv|arrow]
//	lakecat schema PATH
//	lakecat plan FILE --schema S.json
//
// With no PATH, `lakecat cat` reads the bundled demo table.
//
// Exit codes: 0 success, 1 any error (one line on stderr), 2 a usage error.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

type exitCode int

const (
	exitOK    exitCode = 0
	exitError exitCode = 1
	exitUsage exitCode = 2
)

// factory carries what every verb needs from the process.
type factory struct {
	Stdout io.Writer
	Stderr io.Writer
}

// usageError marks an error in the command line itself.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func main() {
	os.Exit(int(run(os.Args[1:], &factory{Stdout: os.Stdout, Stderr: os.Stderr})))
}

// run executes one command line and returns its exit code; errors are
// printed to f.Stderr as one line.
func run(args []string, f *factory) exitCode {
	root := newRootCmd(f)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(f.Stderr, "lakecat: %s\n", msg)
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}

func newRootCmd(f *factory) *cobra.Command {
	root := &cobra.Command{
		Use:           "lakecat",
		Short:         "Read data files of evolved Iceberg, Paimon and Hudi tables in the table's current schema",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(f.Stdout)
	root.SetErr(f.Stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.AddCommand(newCatCmd(f, nil), newSchemaCmd(f, nil), newPlanCmd(f, nil), newFilesCmd(f, nil), newEvolveCmd(f, nil))
	return root
}

func cobraArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if err := v(c, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}
