# options: --pages 1
# modes: fwd bwd
# A record larger than a writable buffer can never fit: it is lost.
write 8192
write 48
dump
write 4088
write 16
dump
