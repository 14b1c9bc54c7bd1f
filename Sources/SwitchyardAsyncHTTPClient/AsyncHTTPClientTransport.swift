// Placeholder: the AsyncHTTPClient transport is being built (issue 3).
