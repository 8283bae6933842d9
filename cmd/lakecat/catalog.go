package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lakecat/lakecat/evolve"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table/iceberg/rest"
)

// The environment variables read when no credential flag is given.
const (
	envCatalogToken      = "LAKECAT_CATALOG_TOKEN"
	envCatalogCredential = "LAKECAT_CATALOG_CREDENTIAL"
)

// catalogFlags name a table of an Iceberg REST catalog: either the TABLE
// argument is rest://HOST[:PORT][/PREFIX]/NS.TABLE, or --catalog URL is
// given and TABLE is NS.TABLE.
type catalogFlags struct {
	URL        string
	Token      string
	Credential string
}

func (c *catalogFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&c.URL, "catalog", "", "Iceberg REST catalog: rest://HOST[:PORT][/PREFIX], or its base URI http(s)://HOST[:PORT][/PATH]; TABLE is then NS.TABLE")
	fl.StringVar(&c.Token, "catalog-token", "", "bearer token for the REST catalog (default $"+envCatalogToken+")")
	fl.StringVar(&c.Credential, "catalog-credential", "", "OAuth2 client credentials CLIENT_ID:SECRET for the REST catalog (default $"+envCatalogCredential+")")
}

// applies reports whether table names a catalog table.
func (c *catalogFlags) applies(table string) bool {
	return c.URL != "" || strings.HasPrefix(table, "rest://")
}

// catalogTarget is where a catalog table is: the catalog's base URI, the
// client's prefix and the table identifier.
type catalogTarget struct {
	URI, Prefix string
	Table       rest.Identifier
}

// parseCatalogTarget reads the TABLE argument (and --catalog). A rest://
// URL is served over HTTPS, or over plain HTTP when HOST is a loopback
// address (localhost, 127.0.0.0/8, ::1).
func parseCatalogTarget(catalog, table string) (catalogTarget, error) {
	var t catalogTarget
	var idText string
	if catalog == "" {
		u, err := url.Parse(table)
		if err != nil || u.User != nil {
			return t, usageError{errors.New("a rest:// TABLE holds no credentials: give --catalog-token or --catalog-credential")}
		}
		if u.Host == "" || u.RawQuery != "" {
			return t, usageError{fmt.Errorf("%q: want rest://HOST[:PORT][/PREFIX]/NS.TABLE", table)}
		}
		segs := strings.Split(strings.Trim(u.Path, "/"), "/")
		idText = segs[len(segs)-1]
		t.URI, t.Prefix = restBase(u), strings.Join(segs[:len(segs)-1], "/")
	} else {
		u, err := url.Parse(catalog)
		if err != nil || u.User != nil {
			return t, usageError{errors.New("--catalog holds no credentials: give --catalog-token or --catalog-credential")}
		}
		if u.Host == "" || u.RawQuery != "" {
			return t, usageError{fmt.Errorf("--catalog %q: want rest://HOST[:PORT][/PREFIX] or http(s)://HOST[:PORT][/PATH]", catalog)}
		}
		switch u.Scheme {
		case "rest":
			t.URI, t.Prefix = restBase(u), strings.Trim(u.Path, "/")
		case "http":
			if !isLoopback(u.Hostname()) {
				return t, usageError{fmt.Errorf("--catalog %q: plain http:// would send the catalog credentials in clear text; it is for loopback hosts only: use https://", catalog)}
			}
			t.URI = strings.TrimSuffix(catalog, "/")
		case "https":
			t.URI = strings.TrimSuffix(catalog, "/")
		default:
			return t, usageError{fmt.Errorf("--catalog %q: want rest://, http:// or https://", catalog)}
		}
		idText = table
	}
	id, err := rest.ParseIdentifier(idText)
	if err != nil {
		return t, usageError{err}
	}
	t.Table = id
	return t, nil
}

func restBase(u *url.URL) string {
	scheme := "https"
	if isLoopback(u.Hostname()) {
		scheme = "http"
	}
	return scheme + "://" + u.Host
}

// isLoopback reports whether host is localhost or a loopback address
// (127.0.0.0/8, ::1): the only hosts lakecat talks plain HTTP to.
func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// connect parses the target and returns a client of its catalog.
// Credentials come from the flags, else from the environment; they never
// appear in an error.
func (c *catalogFlags) connect(ctx context.Context, table string) (*rest.Client, rest.Identifier, error) {
	t, err := parseCatalogTarget(c.URL, table)
	if err != nil {
		return nil, rest.Identifier{}, err
	}
	token, cred := c.Token, c.Credential
	if token == "" && cred == "" {
		token, cred = os.Getenv(envCatalogToken), os.Getenv(envCatalogCredential)
	}
	if token != "" && cred != "" {
		return nil, rest.Identifier{}, usageError{errors.New("give a catalog token or a catalog credential, not both (flags or " + envCatalogToken + ", " + envCatalogCredential + ")")}
	}
	cl, err := rest.New(ctx, rest.Options{URI: t.URI, Prefix: t.Prefix, Token: rest.Secret(token), Credential: rest.Secret(cred)})
	if err != nil {
		return nil, rest.Identifier{}, fmt.Errorf("catalog %s: %w", t.URI, err)
	}
	return cl, t.Table, nil
}

// openCatalogTable loads the table from its catalog and opens its current
// metadata file like any table named by its metadata file.
func openCatalogTable(ctx context.Context, f *factory, c *catalogFlags, table string, tf *tableFlags, columns []string, batchRows int) (*reader.Table, error) {
	cl, id, err := c.connect(ctx, table)
	if err != nil {
		return nil, err
	}
	res, err := cl.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	if res.MetadataLocation == "" {
		return nil, fmt.Errorf("table %s: the catalog returned no metadata-location (a staged table)", id)
	}
	return openTableVended(ctx, f, metadataPath(res.MetadataLocation), tf, columns, batchRows, vendedProperties(res))
}

// openTableOrCatalog opens table for a listing (no columns, default
// batches): from its catalog when c applies to it (rest:// or --catalog),
// else as a folder, metadata file or object-store URL.
func openTableOrCatalog(ctx context.Context, f *factory, c *catalogFlags, table string, tf *tableFlags) (*reader.Table, error) {
	if c.applies(table) {
		return openCatalogTable(ctx, f, c, table, tf, nil, 0)
	}
	return openTable(ctx, f, table, tf, nil, 0)
}

// vendedProps are storage properties (Iceberg FileIO keys such as
// s3.access-key-id) for the object-store locations under prefix.
type vendedProps struct {
	prefix string
	props  map[string]string
}

// vendedProperties returns the storage properties a LoadTableResult vends,
// in the order to apply them: for each storage credential's prefix, the
// table config overlaid by that credential; last, for the metadata
// location, the config overlaid by the credential whose prefix is the
// longest one the location has (the spec's rule), so that the table's own
// bucket gets its own credential. Nothing for a result without config or
// credentials.
func vendedProperties(res *rest.LoadTableResult) []vendedProps {
	if len(res.Config) == 0 && len(res.StorageCredentials) == 0 {
		return nil
	}
	overlay := func(c *rest.StorageCredential) map[string]string {
		m := maps.Clone(res.Config)
		if m == nil {
			m = map[string]string{}
		}
		if c != nil {
			maps.Copy(m, c.Config)
		}
		return m
	}
	var out []vendedProps
	for i := range res.StorageCredentials {
		c := &res.StorageCredentials[i]
		out = append(out, vendedProps{c.Prefix, overlay(c)})
	}
	return append(out, vendedProps{res.MetadataLocation, overlay(res.CredentialFor(res.MetadataLocation))})
}

// metadataPath turns a "file:/path" location (as Java's Hadoop file system
// writes it) into "file:///path"; other locations are unchanged.
func metadataPath(loc string) string {
	if rest, ok := strings.CutPrefix(loc, "file:/"); ok && !strings.HasPrefix(rest, "/") {
		return "file:///" + rest
	}
	return loc
}

// evolveCatalog commits (or, with --dry-run, previews) the update through
// the table's catalog.
func evolveCatalog(ctx context.Context, f *factory, o *evolveOptions, u *evolve.UpdateSchema) error {
	cl, id, err := o.Catalog.connect(ctx, o.Table)
	if err != nil {
		return err
	}
	if o.DryRun {
		res, err := cl.LoadTable(ctx, id)
		if err != nil {
			return err
		}
		c, err := evolve.PrepareSchemaUpdate(res.Metadata, u)
		if err != nil {
			return err
		}
		if err := evolve.WriteDiff(f.Stdout, res.Metadata.CurrentSchema(), c.Schema, res.Metadata.LastColumnID, c.Metadata.LastColumnID); err != nil {
			return err
		}
		fmt.Fprintln(f.Stdout, "dry run: nothing committed")
		return nil
	}
	res, err := evolve.CommitCatalog(ctx, cl, id, u)
	if err != nil {
		return err
	}
	if err := evolve.WriteDiff(f.Stdout, res.Old, res.New, -1, -1); err != nil {
		return err
	}
	if !res.Changed {
		fmt.Fprintln(f.Stdout, "no change: nothing committed")
		return nil
	}
	fmt.Fprintf(f.Stdout, "committed %s (last-column-id %d)\n", res.File, res.LastColumnID)
	return nil
}
