class unparsable { notice('unparsable loaded') }
