package staff

import "strconv"

// limitText is a spend limit as the history writes it: its credits, or
// "none".
func limitText(v *int64) string {
	if v == nil {
		return "none"
	}
	return strconv.FormatInt(*v, 10) + " credits"
}
