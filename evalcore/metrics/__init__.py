"""One module per metric family; each is counts (adding with ``+``) then score."""
