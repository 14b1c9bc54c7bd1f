// Placeholder: the URLSession transport is being built (issue 3).
