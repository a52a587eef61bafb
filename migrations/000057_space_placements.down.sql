DROP TABLE space_placements;
