//go:build !lakecat_noazure

package blobfs

import _ "gocloud.dev/blob/azureblob" // azblob://
