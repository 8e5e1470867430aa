# options: --pages 1
# 63 records of 64 bytes leave 64 free: the 64th fits exactly when the
# writer ignores the reader, and fails when it must keep one byte free.
write 64 63
dump
write 64
dump
write 16
dump
