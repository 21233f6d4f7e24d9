// Offline gazetteer and place search.
