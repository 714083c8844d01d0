require "json"
#        ^ <file>

module Store
  VERSION = "1.4.0"
#            ^ Module:Store > Constant:VERSION

  class Inventory
    include Enumerable

    attr_reader :items, :owner
#                        ^ Module:Store > Class:Inventory
    DEFAULT_LIMIT = 100

    def initialize(owner, limit: DEFAULT_LIMIT)
      @owner = owner
#     ^ Module:Store > Class:Inventory > Constructor:initialize > Field:@owner
      @limit = limit
#            ^ Module:Store > Class:Inventory > Constructor:initialize
      @items = []
    end

    def self.load(path)
      data = JSON.parse(File.read(path))
      new(data.fetch("owner")).tap do |inventory|
        data.fetch("items").each { |item| inventory << item }
#                                         ^ Module:Store > Class:Inventory > Function:self.load
      end
    end

    def <<(item)
      raise ArgumentError, "full" if items.size >= @limit
#           ^ Module:Store > Class:Inventory > Method:<<
      items.push(item)
      self
    end

    def each(&block)
      items.each(&block)
    end

    class << self
      def empty(owner)
        new(owner, limit: 0)
#                  ^ Module:Store > Class:Inventory > Namespace:<< self > Function:empty
      end
    end
  end

  class Store::Report < Struct.new(:inventory)
    def to_s
      "#{inventory.owner}: #{inventory.count} items"
#                                      ^ Module:Store > Class:Store::Report > Method:to_s
    end
  end
end
