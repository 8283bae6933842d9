//go:build !lakecat_noazure

package blob

import _ "gocloud.dev/blob/azureblob" // azblob://
