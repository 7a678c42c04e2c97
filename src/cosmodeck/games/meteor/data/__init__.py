"""Default card data for Meteor (proposed, spec 6.9)."""
