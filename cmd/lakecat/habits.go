package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// addCLIHabits gives the root what a command line is expected to have:
// --version and the version verb, --verbose, and completions of flag
// values (cobra's completion verb writes the shell scripts).
func addCLIHabits(root *cobra.Command, f *factory) {
	// --version prints the whole of `lakecat version`, not cobra's one line.
	// It is a flag of our own rather than cobra's Version field: cobra
	// prints that through text/template, and a reachable template Execute
	// makes the linker keep every exported method of every type (about 5 MB
	// of SDK code in a release binary).
	version := root.Flags().Bool("version", false, "version for lakecat")
	root.Args = cobraArgs(cobra.NoArgs)
	root.RunE = func(c *cobra.Command, _ []string) error {
		if *version {
			_, err := fmt.Fprint(f.Stdout, readVersion().String())
			return err
		}
		return c.Help()
	}
	root.PersistentFlags().BoolVarP(&f.Verbose, "verbose", "v", false, "log what the object-store SDKs say (debug lines, warnings) to stderr")
	root.AddCommand(newVersionCmd(f))
	// cobra's completion verb prints its help and exits 0 for a shell it
	// has no script for (tcsh, ksh): that is a usage error.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, s := range c.Commands() {
			shells = append(shells, s.Name())
		}
		c.Args = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("no completion script for shell %q (want %s)", args[0], strings.Join(shells, ", "))}
			}
			return nil
		}
		c.RunE = func(c *cobra.Command, args []string) error {
			return usageError{fmt.Errorf("completion wants a shell: %s", strings.Join(shells, ", "))}
		}
	}
	for _, c := range root.Commands() {
		completeFlag(c, "rules", rulesCompletion())
		switch c.Name() {
		case "cat":
			completeFlag(c, "format", outputFormats)
		case "files", "schema", "plan":
			completeFlag(c, "format", []string{"text", "json"})
		}
	}
}

// rulesCompletion lists the spellings of --rules (ruleNames), sorted.
func rulesCompletion() []string {
	return slices.Sorted(maps.Keys(ruleNames))
}

// completeFlag makes the shell complete flag name of c with those of
// values that start with what was typed (no file names); a command without
// the flag is left alone.
func completeFlag(c *cobra.Command, name string, values []string) {
	if c.Flags().Lookup(name) == nil {
		return
	}
	_ = c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, typed) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
}
