package main

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
)

// routePreload is one route's entry in the preload.json the build writes
// (webapp/vite.config.ts): the chunks its page needs beyond the entry's,
// and whether the page is shown signed in only.
type routePreload struct {
	SignedIn bool     `json:"signedIn"`
	Files    []string `json:"files"`
}

// routePreloads lists the assets to preload with the HTML answer of route
// p (matched as isAppRoute matches), none for a signed-in page when the
// request carries no session (the app sends it to the sign-in page), nor
// without the file (an older build); signedIn says the route is a signed-in
// page asked for with a session cookie.
func routePreloads(dir, p string, hasSession bool) (files []string, signedIn bool) {
	data, err := os.ReadFile(filepath.Join(dir, "preload.json"))
	if err != nil {
		return nil, false
	}
	var routes map[string]routePreload
	if json.Unmarshal(data, &routes) != nil {
		return nil, false
	}
	p = strings.ToLower(strings.TrimSuffix(p, "/"))
	for route, pre := range routes {
		if strings.ToLower(strings.TrimSuffix(route, "/")) != p {
			continue
		}
		if pre.SignedIn && !hasSession {
			return nil, false
		}
		for _, f := range pre.Files {
			// Only the build's own assets: nothing else is named to the browser.
			if strings.HasPrefix(f, "/assets/") && !strings.ContainsAny(f, "\"<>\r\n ") {
				files = append(files, f)
			}
		}
		return files, pre.SignedIn
	}
	return nil, false
}

// withPreloads names files in the page's head, after what Vite put there
// (<link rel="modulepreload"> for scripts, rel="preload" for style sheets,
// crossorigin as Vite's own tags so the browser reuses what it fetched);
// files the page already names are left out. Issue 38 item 2: the route's
// chunks load with the entry chunk, not after it has run. Not in Link
// headers: Chromium acts on those before it reads the page, and the thirty
// small chunks then went ahead of the entry chunk and the style sheet,
// which the first paint needs first (measured: the entry chunk requested
// last).
func withPreloads(page []byte, files []string) []byte {
	var tags strings.Builder
	for _, f := range files {
		if bytes.Contains(page, []byte(`"`+f+`"`)) {
			continue
		}
		href := html.EscapeString(f)
		if strings.HasSuffix(f, ".css") {
			tags.WriteString(`    <link rel="preload" as="style" crossorigin href="` + href + "\">\n")
		} else {
			tags.WriteString(`    <link rel="modulepreload" crossorigin href="` + href + "\">\n")
		}
	}
	end := bytes.Index(page, []byte("</head>"))
	if tags.Len() == 0 || end < 0 {
		return page
	}
	out := make([]byte, 0, len(page)+tags.Len())
	out = append(out, page[:end]...)
	out = append(out, tags.String()...)
	return append(out, page[end:]...)
}
