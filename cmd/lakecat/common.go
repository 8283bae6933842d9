package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lakecat/lakecat/internal/osfile"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/testdata/orders"
)

// schemaFlags are the flags that say how to read a file: shared by cat and
// plan.
type schemaFlags struct {
	SchemaPath      string
	FileSchemaPath  string
	NameMappingPath string
	Rules           string
}

// ruleNames are the spellings of --rules.
var ruleNames = map[string]project.Rules{
	"iceberg":    project.IcebergV2,
	"iceberg-v3": project.IcebergV3,
	"paimon":     project.Paimon,
	"hudi":       project.Hudi,
}

// readOptions turns the flags into reader options (without Name); read is
// nil when no --schema is given.
func (s schemaFlags) readOptions() (reader.Options, error) {
	var opts reader.Options
	rulesSet := false
	if s.SchemaPath != "" {
		doc, err := loadSchemaDocument("--schema", s.SchemaPath)
		if err != nil {
			return opts, err
		}
		opts.ReadSchema, opts.NameMapping, opts.Rules = doc.Schema, doc.NameMapping, doc.Rules
		rulesSet = true
	}
	if s.FileSchemaPath != "" {
		doc, err := loadSchemaDocument("--file-schema", s.FileSchemaPath)
		if err != nil {
			return opts, err
		}
		opts.WriterSchema = doc.Schema
		if !rulesSet {
			opts.Rules = doc.Rules
		}
	}
	if s.NameMappingPath != "" {
		data, err := readFlagFile("--name-mapping", s.NameMappingPath, "an Iceberg name mapping JSON (the table property schema.name-mapping.default)")
		if err != nil {
			return opts, err
		}
		nm, err := schema.ParseNameMapping(data)
		if err != nil {
			return opts, fmt.Errorf("%s: %w", s.NameMappingPath, err)
		}
		opts.NameMapping = nm
	}
	if s.Rules != "" {
		r, ok := ruleNames[s.Rules]
		if !ok {
			return opts, usageError{fmt.Errorf("unknown --rules %q (want iceberg, iceberg-v3, paimon or hudi)", s.Rules)}
		}
		opts.Rules = r
	}
	return opts, nil
}

// readFlagFile reads the file a flag names; a folder is a usage error that
// says what the flag wants.
func readFlagFile(flag, path, want string) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, usageError{fmt.Errorf("%s %s is a folder; want %s", flag, path, want)}
	}
	return osfile.ReadFile(path, iceberg.MaxMetadataBytes)
}

func loadSchemaDocument(flag, path string) (*reader.SchemaDocument, error) {
	data, err := readFlagFile(flag, path, "a file: an Iceberg schema JSON, an Iceberg table metadata JSON (metadata/vN.metadata.json) or a Paimon schema/schema-N")
	if err != nil {
		return nil, err
	}
	doc, err := reader.ParseSchemaDocument(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// input is one data file to read: a local path or a file of the bundled
// demo table.
type input struct {
	name string
	r    io.ReaderAt
	size int64
	file *os.File
}

func (in *input) Close() error {
	if in.file != nil {
		return in.file.Close()
	}
	return nil
}

func openInput(path string) (*input, error) {
	f, size, err := osfile.Open(path)
	if errors.Is(err, osfile.ErrIsDir) {
		return nil, usageError{fmt.Errorf("%s: is a directory: give one TABLE, or one or more data FILEs", path)}
	}
	if err != nil {
		return nil, err
	}
	return &input{name: path, r: f, size: size, file: f}, nil
}

// demoInputs returns the bundled demo table's data files and its current
// schema document.
func demoInputs() ([]*input, *reader.SchemaDocument, error) {
	md, err := orders.FS.ReadFile(orders.MetadataPath)
	if err != nil {
		return nil, nil, err
	}
	doc, err := reader.ParseSchemaDocument(md)
	if err != nil {
		return nil, nil, err
	}
	var ins []*input
	for _, p := range orders.DataFiles {
		b, err := orders.FS.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		ins = append(ins, &input{name: "orders/" + p, r: bytes.NewReader(b), size: int64(len(b))})
	}
	return ins, doc, nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
