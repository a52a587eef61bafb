package placement

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/zaxy/zaxy/validation"
)

// HomeName is the name of the home cluster (the one ZAXY_DATABASE_URL names, where the
// directory and the tokens live) unless ZAXY_CLUSTERS lists its URL under another name.
const HomeName = "home"

// Cluster is one Postgres primary spaces may live on.
type Cluster struct {
	// Name names it in the directory, in zaxy space move --to and in logs.
	Name string
	// URL connects to its primary.
	URL string
	// Weight is its share of new spaces relative to the others' (1 unless ZAXY_CLUSTER_WEIGHTS
	// says otherwise); 0 takes no new space but keeps serving the ones it has.
	Weight float64
	// ReplicaURLs are its streaming standbys (ZAXY_REPLICA_URLS for the home cluster,
	// ZAXY_REPLICA_URLS_<NAME> for the others).
	ReplicaURLs []string
}

// nameFormat is what a cluster name may be: it is stored in the directory and in freezes.
var nameFormat = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// ValidateName checks a cluster name.
func ValidateName(field, name string) error {
	if !nameFormat.MatchString(name) {
		return validation.Errorf(field, "cluster name %q must be 1 to 32 of a-z, 0-9, _ and -, starting with a letter", name)
	}
	return nil
}

// ParseClusters reads ZAXY_CLUSTERS ("name=url,name=url"; blank entries are ignored) and the
// weights of ZAXY_CLUSTER_WEIGHTS ("name=weight,..."), with home, the home cluster's URL: the
// list always holds the home cluster, under the name of the entry with its URL or HomeName. A
// name or URL given twice, a weight for no cluster, and a negative weight are errors.
func ParseClusters(clusters, weights, home string) ([]Cluster, error) {
	var out []Cluster
	byName := map[string]int{}
	homeListed := false
	for _, entry := range strings.Split(clusters, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, url, ok := strings.Cut(entry, "=")
		if !ok || url == "" {
			return nil, validation.Errorf("ZAXY_CLUSTERS", "entry %q must be name=postgres-url", entry)
		}
		if err := ValidateName("ZAXY_CLUSTERS", name); err != nil {
			return nil, err
		}
		if _, dup := byName[name]; dup {
			return nil, validation.Errorf("ZAXY_CLUSTERS", "cluster %q is named twice", name)
		}
		for _, c := range out {
			if c.URL == url {
				return nil, validation.Errorf("ZAXY_CLUSTERS", "clusters %q and %q have the same URL", c.Name, name)
			}
		}
		if url == home {
			homeListed = true
		} else if name == HomeName {
			return nil, validation.Errorf("ZAXY_CLUSTERS", "the name %q is the home cluster's (ZAXY_DATABASE_URL); give this URL another name", HomeName)
		}
		byName[name] = len(out)
		out = append(out, Cluster{Name: name, URL: url, Weight: 1})
	}
	if !homeListed {
		byName[HomeName] = len(out)
		out = append([]Cluster{{Name: HomeName, URL: home, Weight: 1}}, out...)
		for i := range out {
			byName[out[i].Name] = i
		}
	}
	for _, entry := range strings.Split(weights, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, w, ok := strings.Cut(entry, "=")
		i, known := byName[name]
		if !ok || !known {
			return nil, validation.Errorf("ZAXY_CLUSTER_WEIGHTS", "entry %q must be name=weight for a cluster of ZAXY_CLUSTERS", entry)
		}
		f, err := strconv.ParseFloat(w, 64)
		if err != nil || !(f >= 0 && f <= 1e6) {
			return nil, validation.Errorf("ZAXY_CLUSTER_WEIGHTS", "weight %q of cluster %q must be a number from 0 to 1000000", w, name)
		}
		out[i].Weight = f
	}
	placeable := false
	for _, c := range out {
		placeable = placeable || c.Weight > 0
	}
	if !placeable {
		return nil, validation.Errorf("ZAXY_CLUSTER_WEIGHTS", "every cluster has weight 0: new spaces could go nowhere")
	}
	return out, nil
}

// Home is the home cluster of clusters as ParseClusters returned them: the one with URL home.
func Home(clusters []Cluster, home string) Cluster {
	for _, c := range clusters {
		if c.URL == home {
			return c
		}
	}
	return Cluster{Name: HomeName, URL: home, Weight: 1}
}

// Named is the cluster called name, or an error naming the configured ones.
func Named(clusters []Cluster, name string) (Cluster, error) {
	names := make([]string, 0, len(clusters))
	for _, c := range clusters {
		if c.Name == name {
			return c, nil
		}
		names = append(names, c.Name)
	}
	return Cluster{}, validation.Errorf("cluster", "no cluster %q is configured (ZAXY_CLUSTERS names %s)", name, strings.Join(names, ", "))
}

// String names the cluster and its host for logs, without the URL's password.
func (c Cluster) String() string { return fmt.Sprintf("%s (weight %g)", c.Name, c.Weight) }
