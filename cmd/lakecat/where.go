package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/table"
)

// whereUsage is the help of --where.
const whereUsage = `keep only rows matching this filter, e.g. "region = 'eu' and ts >= '2024-01-01' and amount > 10.5" (=, !=, <, <=, >, >=, IN, NOT IN, IS [NOT] NULL, IS [NOT] NAN, [NOT] STARTS WITH, AND, OR, NOT)`

// parseWhere parses --where ("" gives nil). A syntax error is a usage
// error naming the flag and pointing at the character.
func parseWhere(s string) (expr.Expr, error) {
	if s == "" {
		return nil, nil
	}
	e, err := expr.Parse(s)
	if err != nil {
		return nil, usageError{fmt.Errorf("--where: %w", err)}
	}
	return e, nil
}

// runPlanWhere prints, for each live data file of the table, whether the
// filter skips it and why, and how many row groups it keeps.
func runPlanWhere(ctx context.Context, f *factory, path string, tf *tableFlags, cat *catalogFlags) error {
	tf.forListing()
	t, err := openTableOrCatalog(ctx, f, cat, path, tf)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(f.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tREAD\tROW GROUPS\tBYTES SKIPPED\tWHY")
	var files, skipped, groups, kept, bloom, pstats int
	var bytes int64
	var rowIndex []string // ORC files some of whose row groups the row index rules out
	var rowIndexGroups int
	var pageLines []string
	for i, tfile := range t.Files {
		pr, err := t.PrunePages(ctx, i)
		if err != nil {
			return err
		}
		files++
		read := "yes"
		if !pr.MayMatch {
			read = "skip"
			skipped++
			if pr.Reason == table.SkipValueStats || pr.Reason == table.SkipKeyStats {
				pstats++
			}
		}
		groups += pr.RowGroups
		kept += pr.RowGroupsKept
		bloom += pr.RowGroupsSkippedBloom
		bytes += pr.BytesSkipped
		rg := "-"
		if pr.RowGroups > 0 {
			rg = fmt.Sprintf("%d/%d", pr.RowGroupsKept, pr.RowGroups)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", tfile.Path, read, rg, pr.BytesSkipped, dash(pr.Reason))
		if pr.OrcRowGroupsKept < pr.OrcRowGroups {
			rowIndex = append(rowIndex, fmt.Sprintf("row index: %s: row groups %d/%d kept, %d rows skipped", tfile.Path, pr.OrcRowGroupsKept, pr.OrcRowGroups, pr.OrcRowsSkipped))
			rowIndexGroups += pr.OrcRowGroups - pr.OrcRowGroupsKept
		}
		if pr.PageIndexRows > 0 {
			pageLines = append(pageLines, fmt.Sprintf("page index: %s: %d pages, %d rows skipped, %d bytes not read\n", tfile.Path, pr.PageIndexPages, pr.PageIndexRows, pr.PageIndexBytes))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range pageLines {
		if _, err := io.WriteString(f.Stdout, l); err != nil {
			return err
		}
	}
	// Files of the manifests the partition summaries ruled out are not
	// listed, but counted skipped, as cat --stats counts them.
	manifests, mfiles := t.ManifestsSkipped()
	if manifests > 0 {
		if _, err := fmt.Fprintf(f.Stdout, "manifests skipped by partition summaries: %d (%d files)\n", manifests, mfiles); err != nil {
			return err
		}
	}
	if pstats > 0 {
		if _, err := fmt.Fprintf(f.Stdout, "files skipped by Paimon manifest statistics: %d\n", pstats); err != nil {
			return err
		}
	}
	if bloom > 0 {
		if _, err := fmt.Fprintf(f.Stdout, "row groups skipped by bloom filters: %d\n", bloom); err != nil {
			return err
		}
	}
	if err := printRowIndexSkips(f, rowIndex, rowIndexGroups); err != nil {
		return err
	}
	_, err = fmt.Fprintf(f.Stdout, "files: %d read, %d skipped; row groups: %d of %d kept; bytes skipped: %d\n", files-skipped, int64(skipped)+mfiles, kept, groups, bytes)
	return err
}

// printRowIndexSkips prints, for plan --where, one line per ORC file some
// of whose row groups the row index rules out (in the stripes kept), then
// their total.
func printRowIndexSkips(f *factory, lines []string, groups int) error {
	for _, l := range lines {
		if _, err := fmt.Fprintln(f.Stdout, l); err != nil {
			return err
		}
	}
	if groups > 0 {
		_, err := fmt.Fprintf(f.Stdout, "orc row groups skipped by the row index: %d\n", groups)
		return err
	}
	return nil
}

// scanStatsLine formats the counters of a filtered scan for stderr.
func scanStatsLine(c reader.ScanCounts) string {
	line := fmt.Sprintf("lakecat: filter: files %d read, %d skipped; row groups %d read, %d skipped; bytes skipped %d; rows %d decoded, %d kept; row groups skipped by bloom filters %d",
		c.FilesRead, c.FilesSkipped, c.RowGroupsRead, c.RowGroupsSkipped, c.BytesSkippedFiles+c.BytesSkippedRowGroups+c.BytesSkippedStripes, c.RowsRead, c.RowsSelected, c.RowGroupsSkippedBloom)
	return line + orcStatsLine(c) + pageIndexStatsLine(c) + paimonStatsLine(c)
}

// paimonStatsLine formats the files among those skipped that Paimon
// manifest statistics (value or key statistics) ruled out, "" when none.
func paimonStatsLine(c reader.ScanCounts) string {
	if c.FilesSkippedStats == 0 {
		return ""
	}
	return fmt.Sprintf("; paimon statistics: %d files skipped", c.FilesSkippedStats)
}

// pageIndexStatsLine formats the Parquet page index counters of a
// filtered scan, "" when the page index ruled out no row.
func pageIndexStatsLine(c reader.ScanCounts) string {
	if c.PageIndexRowsSkipped == 0 {
		return ""
	}
	return fmt.Sprintf("; page index: %d pages, %d rows skipped, %d bytes not read", c.PageIndexPagesSkipped, c.PageIndexRowsSkipped, c.PageIndexBytesSkipped)
}

// orcStatsLine formats the ORC counters of a filtered scan, "" when it
// read no ORC stripe; the row group part is left out when the stripes
// read had no row index (a file written without one, rowIndexStride 0).
func orcStatsLine(c reader.ScanCounts) string {
	if c.StripesRead+c.StripesSkipped == 0 {
		return ""
	}
	line := fmt.Sprintf("; stripes %d read, %d skipped", c.StripesRead, c.StripesSkipped)
	if c.OrcRowGroupsRead+c.OrcRowGroupsSkipped == 0 {
		return line
	}
	line += fmt.Sprintf("; orc row groups %d read, %d skipped (%d by bloom filters)",
		c.OrcRowGroupsRead, c.OrcRowGroupsSkipped, c.OrcBloomSkipped)
	if c.OrcRowIndexRowsSkipped > 0 {
		line += fmt.Sprintf("; row index: %d rows skipped (%d decoded and dropped), %d bytes not decompressed",
			c.OrcRowIndexRowsSkipped, c.OrcRowIndexRowsDecoded, c.OrcRowIndexBytesSkipped)
	}
	return line
}
