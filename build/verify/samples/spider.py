import scrapy


class PageSpider(scrapy.Spider):
    name = "page"

    def start_requests(self):
        yield scrapy.Request(self.url)

    def parse(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
