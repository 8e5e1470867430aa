# options:
# One record of every layout (16, 24, 32 and the stack-dump sizes).
write 16
write 24
write 32
write 40
write 48 3
write 1024
dump
