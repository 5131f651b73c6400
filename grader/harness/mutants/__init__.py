"""Known-wrong implementations of ticketflow functions (hidden from the student's process)."""
