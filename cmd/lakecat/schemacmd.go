package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lakecat/lakecat/internal/osfile"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

type schemaOptions struct {
	Path    string
	Format  string
	Table   tableFlags
	Catalog catalogFlags
}

func newSchemaCmd(f *factory, runF func(*schemaOptions) error) *cobra.Command {
	opts := &schemaOptions{}
	c := &cobra.Command{
		Use:   "schema PATH",
		Short: "Print the id-tagged schema tree of a data file or a schema file",
		Long: `Print the schema tree with field ids and types.

PATH is a table folder or object-store URL, or an Iceberg REST catalog's
table (rest://HOST[:PORT][/PREFIX]/NS.TABLE, or NS.TABLE with --catalog) (the read schema, then every schema of its history
with its id, the current one marked), a Parquet or ORC data file (its schema as stored: ids from the file,
"-" where it has none), an Iceberg schema JSON, an Iceberg table metadata JSON
(every schema with its id, the current one marked) or a Paimon schema-N file.`,
		Args: cobraArgs(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Path = args[0]
			if opts.Format != "text" && opts.Format != "json" {
				return usageError{fmt.Errorf("unknown --format %q (want text or json)", opts.Format)}
			}
			if runF != nil {
				return runF(opts)
			}
			return runSchema(f, opts)
		},
	}
	c.Flags().StringVar(&opts.Format, "format", "text", "text, or json: one object whose schemas are Iceberg schema JSON")
	opts.Table.registerListing(c.Flags(), "raw") // a Paimon table's system columns
	opts.Catalog.register(c.Flags())
	return c
}

func runSchema(f *factory, o *schemaOptions) error {
	if st, err := os.Stat(o.Path); err == nil && st.IsDir() || urlScheme(o.Path) != "" || o.Catalog.applies(o.Path) {
		return schemaOfTable(f, o)
	}
	in, err := openInput(o.Path)
	if err != nil {
		return err
	}
	defer in.Close()
	_, derr := reader.DetectFormatNamed(in.r, in.size, o.Path)
	if derr == nil {
		s, format, err := reader.FileSchema(in.r, in.size)
		if err != nil {
			return fmt.Errorf("%s: %w", o.Path, err)
		}
		if o.Format == "json" {
			js, err := icebergJSON(s)
			if err != nil {
				return fmt.Errorf("%s: %w", o.Path, err)
			}
			return printJSON(f, schemaJSON{Kind: strings.ToLower(fmt.Sprint(format)) + "-file", Path: o.Path, Schema: js})
		}
		fmt.Fprintf(f.Stdout, "%s file %s\n", format, o.Path)
		printTree(f, s.Fields, "")
		return nil
	}
	data, err := osfile.ReadFile(o.Path, iceberg.MaxMetadataBytes)
	if err != nil {
		return err
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return fmt.Errorf("%s: %w", o.Path, derr) // not JSON: say why it is no data file
	}
	doc, err := reader.ParseSchemaDocument(data)
	if err != nil {
		return fmt.Errorf("%s: not a Parquet or ORC file, nor a schema document: %w", o.Path, err)
	}
	if o.Format == "json" {
		out := schemaJSON{Kind: string(doc.Kind), Path: o.Path}
		switch doc.Kind {
		case reader.SchemaIcebergMetadata:
			md := doc.Metadata
			out.FormatVersion, out.LastColumnID, out.CurrentSchemaID = md.FormatVersion, &md.LastColumnID, &md.CurrentSchemaID
			for _, sc := range md.Schemas {
				js, err := icebergJSON(sc)
				if err != nil {
					return fmt.Errorf("%s: schema %d: %w", o.Path, sc.ID, err)
				}
				out.Schemas = append(out.Schemas, js)
			}
		case reader.SchemaPaimon:
			out.HighestFieldID = &doc.Paimon.HighestFieldID
			fallthrough
		default:
			if out.Schema, err = icebergJSON(doc.Schema); err != nil {
				return fmt.Errorf("%s: %w", o.Path, err)
			}
		}
		return printJSON(f, out)
	}
	switch doc.Kind {
	case reader.SchemaIcebergMetadata:
		md := doc.Metadata
		fmt.Fprintf(f.Stdout, "iceberg table metadata, format-version %d, last-column-id %d\n", md.FormatVersion, md.LastColumnID)
		for _, s := range md.Schemas {
			mark := ""
			if s.ID == md.CurrentSchemaID {
				mark = " (current)"
			}
			fmt.Fprintf(f.Stdout, "schema %d%s\n", s.ID, mark)
			printTree(f, s.Fields, "  ")
		}
	case reader.SchemaPaimon:
		fmt.Fprintf(f.Stdout, "paimon schema %d, highestFieldId %d\n", doc.Paimon.ID, doc.Paimon.HighestFieldID)
		printTree(f, doc.Schema.Fields, "")
	default:
		fmt.Fprintf(f.Stdout, "iceberg schema %d\n", doc.Schema.ID)
		printTree(f, doc.Schema.Fields, "")
	}
	return nil
}

// printTree prints one field per line: id, name, requiredness, type;
// children indented under their parent.
func printTree(f *factory, fields []*schema.Field, indent string) {
	for _, fd := range fields {
		id := "-"
		if fd.ID != schema.NoID {
			id = fmt.Sprint(fd.ID)
		}
		req := "optional"
		if fd.Required {
			req = "required"
		}
		typ := fd.Type.String()
		if !fd.Type.Kind().IsPrimitive() {
			typ = fd.Type.Kind().String()
		}
		def := ""
		if fd.InitialDefault != nil {
			// Iceberg's JSON single-value form (spec, Appendix D), as the
			// metadata stores it and plan prints it.
			if v, err := schema.MarshalLiteral(fd.Type, fd.InitialDefault); err == nil {
				def = fmt.Sprintf(" (initial-default %s)", v)
			} else {
				def = fmt.Sprintf(" (initial-default %v)", fd.InitialDefault)
			}
		}
		fmt.Fprintf(f.Stdout, "%s%s %s: %s %s%s\n", indent, id, fd.Name, req, typ, def)
		printTree(f, schema.Children(fd.Type), indent+"  ")
	}
}

func schemaOfTable(f *factory, o *schemaOptions) error {
	o.Table.forListing()
	var t *reader.Table
	var err error
	if o.Catalog.applies(o.Path) {
		t, err = openCatalogTable(context.Background(), f, &o.Catalog, o.Path, &o.Table, nil, 0)
	} else {
		t, err = openTable(context.Background(), f, o.Path, &o.Table, nil, 0)
	}
	if err != nil {
		return err
	}
	if o.Format == "json" {
		n := len(t.Files)
		out := schemaJSON{Kind: "table", Format: string(t.Format), Path: o.Path, LiveDataFiles: &n, CurrentSchemaID: &t.CurrentSchemaID}
		if out.ReadSchema, err = icebergJSON(t.ReadSchema); err != nil {
			return fmt.Errorf("%s: read schema: %w", o.Path, err)
		}
		for _, sc := range t.Schemas {
			js, err := icebergJSON(sc)
			if err != nil {
				return fmt.Errorf("%s: schema %d: %w", o.Path, sc.ID, err)
			}
			out.Schemas = append(out.Schemas, js)
		}
		return printJSON(f, out)
	}
	fmt.Fprintf(f.Stdout, "%s table %s, %d live data files\n", t.Format, o.Path, len(t.Files))
	fmt.Fprintf(f.Stdout, "read schema (schema %d)\n", t.ReadSchema.ID)
	printTree(f, t.ReadSchema.Fields, "  ")
	for _, s := range t.Schemas {
		mark := ""
		if s.ID == t.CurrentSchemaID {
			mark = " (current)"
		}
		fmt.Fprintf(f.Stdout, "schema %d%s\n", s.ID, mark)
		printTree(f, s.Fields, "  ")
	}
	return nil
}

// schemaJSON is the object `lakecat schema --format json` prints. Kind is
// "parquet-file", "orc-file", "iceberg-schema", "iceberg-metadata",
// "paimon-schema" or "table"; each schema is an Iceberg schema JSON (table
// spec, Appendix C), fields without an id having "id": -1.
type schemaJSON struct {
	Kind            string            `json:"kind"`
	Format          string            `json:"format,omitempty"`
	Path            string            `json:"path"`
	FormatVersion   int               `json:"format-version,omitempty"`
	LastColumnID    *int              `json:"last-column-id,omitempty"`
	HighestFieldID  *int              `json:"highest-field-id,omitempty"`
	LiveDataFiles   *int              `json:"live-data-files,omitempty"`
	Schema          json.RawMessage   `json:"schema,omitempty"`
	ReadSchema      json.RawMessage   `json:"read-schema,omitempty"`
	CurrentSchemaID *int              `json:"current-schema-id,omitempty"`
	Schemas         []json.RawMessage `json:"schemas,omitempty"`
}

// icebergJSON encodes s as an Iceberg schema JSON, a field without an id
// with id -1 (as the text format prints "-"). A schema the encoder still
// refuses (a nil type, a default that does not fit its type) is an error
// matching [schema.ErrInvalidSchema].
func icebergJSON(s *schema.Schema) (json.RawMessage, error) {
	return schema.MarshalIcebergSchemaNoIDs(s)
}

func printJSON(f *factory, v any) error {
	enc := json.NewEncoder(f.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
