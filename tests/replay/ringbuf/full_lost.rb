# options: --pages 2
# Fill the buffer, overflow it, and keep writing: in a writable buffer the
# excess is counted in one LOST record, which needs room of its own.
write 1000 8
dump
write 1000 3
write 48 2
dump
