# roofline-cuda list: the kernel registry as a table, JSON and CSV; bad regexes.
roofkit_cli_test(NAME list.markdown COMMAND roofline-cuda list
  STDOUT "\\| global/coalesced +\\| global +\\| +67108864 \\|.*\\(262144,1,1\\) x \\(256,1,1\\).*90 kernels"
  STDERR_LINES 0)
roofkit_cli_test(NAME list.json COMMAND roofline-cuda list --json --kernel "^gemm/tiled-32$"
  STDOUT "^\\{\n  \"kernels\": \\[.*\"name\": \"gemm/tiled-32\"")
roofkit_cli_test(NAME list.json_values COMMAND roofline-cuda list --json --kernel "^gemm/tiled-32$"
  STDOUT "\"flops\": 17179869184.0")
roofkit_cli_test(NAME list.json_claim COMMAND roofline-cuda list --json --kernel "^gemm/tiled-32$"
  STDOUT "\"claim_id\": \"gemm-tiling-traffic-32\"")
roofkit_cli_test(NAME list.csv COMMAND roofline-cuda list --csv --kernel "^reduce/dot-"
  STDOUT "^name,topic,size,size_unit,launch,measurement,flops_formula,flops,bytes_formula,bytes,intensity,claim_id,claim.reduce/dot-atomic,reduce,67108864,")
roofkit_cli_test(NAME list.transfer_kinds COMMAND roofline-cuda list --kernel "transfer/h2d-pinned-256MiB"
  STDOUT "transfer/h2d-pinned-256MiB.*\\| copy +\\| transfer +\\|")
roofkit_cli_test(NAME list.bad_regex COMMAND roofline-cuda list --kernel "("
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "not a valid regular expression")
roofkit_cli_test(NAME list.no_match COMMAND roofline-cuda list --kernel "no-such-kernel"
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "'no-such-kernel' matches no kernel")
roofkit_cli_test(NAME list.json_and_csv COMMAND roofline-cuda list --json --csv
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1)
roofkit_cli_test(NAME list.help COMMAND roofline-cuda list --help
  STDOUT "--kernel REGEX.*Exit codes")
